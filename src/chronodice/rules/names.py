"""Random names for ``.nnn`` / ``.name``: small bundled lists of name parts, an injected RNG.

Three styles: Chinese (a surname and a one- or two-character given name), English (first name
and surname, with the usual Chinese transliteration) and Japanese (surname and given name in
kanji, with the kana reading).  The lists are short on purpose: enough for an NPC on the spot.

>>> import random
>>> random_names(random.Random(3), "cn", 2)
['段超琪', '廖军芳']
>>> random_names(random.Random(3), "en", 1)
['Francis Ward（弗朗西斯·沃德）']
>>> random_names(random.Random(3), "jp", 1)
['中村 陽翔（なかむら はると）']
"""

from __future__ import annotations

import random

MAX_NAMES = 10
"""Most names one command gives."""

CN_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾萧田董袁潘蒋蔡余杜叶程苏魏吕丁沈"
    "任姚卢姜崔钟谭陆汪范金石廖贾夏韦方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
CN_DOUBLE_SURNAMES = ("欧阳", "司马", "上官", "诸葛", "东方", "慕容", "令狐", "夏侯")
CN_GIVEN = (
    "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰红鹏辉晨宇浩然子墨轩涵雨欣怡梓萱思远"
    "晓婷嘉琪俊杰文博一鸣若曦清歌墨白星河云舒瑾瑜书瑶景行知秋"
)

EN_FIRST = (
    ("James", "詹姆斯"),
    ("John", "约翰"),
    ("Robert", "罗伯特"),
    ("Michael", "迈克尔"),
    ("William", "威廉"),
    ("David", "大卫"),
    ("Richard", "理查德"),
    ("Thomas", "托马斯"),
    ("Charles", "查尔斯"),
    ("Henry", "亨利"),
    ("Edward", "爱德华"),
    ("Arthur", "亚瑟"),
    ("Albert", "阿尔伯特"),
    ("Walter", "沃尔特"),
    ("Harold", "哈罗德"),
    ("Francis", "弗朗西斯"),
    ("Samuel", "塞缪尔"),
    ("Daniel", "丹尼尔"),
    ("Mary", "玛丽"),
    ("Elizabeth", "伊丽莎白"),
    ("Margaret", "玛格丽特"),
    ("Alice", "爱丽丝"),
    ("Helen", "海伦"),
    ("Dorothy", "多萝西"),
    ("Emma", "艾玛"),
    ("Grace", "格蕾丝"),
    ("Lucy", "露西"),
    ("Anna", "安娜"),
    ("Clara", "克拉拉"),
    ("Rose", "罗丝"),
    ("Edith", "伊迪丝"),
    ("Florence", "弗洛伦斯"),
    ("Catherine", "凯瑟琳"),
    ("Sarah", "萨拉"),
    ("Evelyn", "伊芙琳"),
    ("Agnes", "艾格尼丝"),
)
EN_LAST = (
    ("Smith", "史密斯"),
    ("Johnson", "约翰逊"),
    ("Williams", "威廉姆斯"),
    ("Brown", "布朗"),
    ("Jones", "琼斯"),
    ("Miller", "米勒"),
    ("Davis", "戴维斯"),
    ("Wilson", "威尔逊"),
    ("Moore", "摩尔"),
    ("Taylor", "泰勒"),
    ("Anderson", "安德森"),
    ("Thompson", "汤普森"),
    ("White", "怀特"),
    ("Harris", "哈里斯"),
    ("Clark", "克拉克"),
    ("Lewis", "刘易斯"),
    ("Walker", "沃克"),
    ("Hall", "霍尔"),
    ("Allen", "艾伦"),
    ("Young", "杨"),
    ("King", "金"),
    ("Wright", "赖特"),
    ("Hughes", "休斯"),
    ("Carter", "卡特"),
    ("Mitchell", "米切尔"),
    ("Turner", "特纳"),
    ("Phillips", "菲利普斯"),
    ("Campbell", "坎贝尔"),
    ("Parker", "帕克"),
    ("Evans", "埃文斯"),
    ("Collins", "柯林斯"),
    ("Stewart", "斯图尔特"),
    ("Morgan", "摩根"),
    ("Cooper", "库珀"),
    ("Ward", "沃德"),
    ("Lovecraft", "洛夫克拉夫特"),
)

JP_SURNAMES = (
    ("佐藤", "さとう"),
    ("鈴木", "すずき"),
    ("高橋", "たかはし"),
    ("田中", "たなか"),
    ("伊藤", "いとう"),
    ("渡辺", "わたなべ"),
    ("山本", "やまもと"),
    ("中村", "なかむら"),
    ("小林", "こばやし"),
    ("加藤", "かとう"),
    ("吉田", "よしだ"),
    ("山田", "やまだ"),
    ("佐々木", "ささき"),
    ("山口", "やまぐち"),
    ("松本", "まつもと"),
    ("井上", "いのうえ"),
    ("木村", "きむら"),
    ("林", "はやし"),
    ("清水", "しみず"),
    ("森", "もり"),
    ("池田", "いけだ"),
    ("橋本", "はしもと"),
    ("石川", "いしかわ"),
    ("藤原", "ふじわら"),
    ("黒田", "くろだ"),
    ("白石", "しらいし"),
    ("神崎", "かんざき"),
    ("早乙女", "さおとめ"),
)
JP_GIVEN = (
    ("翔太", "しょうた"),
    ("大輔", "だいすけ"),
    ("健太", "けんた"),
    ("拓也", "たくや"),
    ("直樹", "なおき"),
    ("誠", "まこと"),
    ("蓮", "れん"),
    ("悠真", "ゆうま"),
    ("陽翔", "はると"),
    ("湊", "みなと"),
    ("樹", "いつき"),
    ("颯太", "そうた"),
    ("一郎", "いちろう"),
    ("正雄", "まさお"),
    ("清", "きよし"),
    ("秀樹", "ひでき"),
    ("陽菜", "ひな"),
    ("結衣", "ゆい"),
    ("美咲", "みさき"),
    ("さくら", "さくら"),
    ("花子", "はなこ"),
    ("愛", "あい"),
    ("葵", "あおい"),
    ("凛", "りん"),
    ("春", "はる"),
    ("千尋", "ちひろ"),
    ("由美", "ゆみ"),
    ("恵子", "けいこ"),
    ("明美", "あけみ"),
    ("静香", "しずか"),
    ("雪菜", "ゆきな"),
    ("琴音", "ことね"),
)

LANGS = ("cn", "en", "jp")


def chinese_name(rng: random.Random) -> str:
    """A surname (one in twelve a double one) and one or two given-name characters."""
    surname = rng.choice(CN_DOUBLE_SURNAMES) if rng.randrange(12) == 0 else rng.choice(CN_SURNAMES)
    given = "".join(rng.choice(CN_GIVEN) for _ in range(rng.choice((1, 2, 2))))
    return surname + given


def english_name(rng: random.Random) -> str:
    """``First Last（名·姓）``."""
    (first, first_cn), (last, last_cn) = rng.choice(EN_FIRST), rng.choice(EN_LAST)
    return f"{first} {last}（{first_cn}·{last_cn}）"


def japanese_name(rng: random.Random) -> str:
    """``姓 名（せい めい）``."""
    (sur, sur_kana), (given, given_kana) = rng.choice(JP_SURNAMES), rng.choice(JP_GIVEN)
    return f"{sur} {given}（{sur_kana} {given_kana}）"


_MAKERS = {"cn": chinese_name, "en": english_name, "jp": japanese_name}


def random_names(rng: random.Random, lang: str, n: int) -> list[str]:
    """``n`` names (1 to :data:`MAX_NAMES`) in style ``lang`` (one of :data:`LANGS`)."""
    if lang not in _MAKERS:
        raise ValueError(f"unknown name style {lang!r}")
    if not 1 <= n <= MAX_NAMES:
        raise ValueError(f"n must be 1..{MAX_NAMES}")
    return [_MAKERS[lang](rng) for _ in range(n)]


__all__ = ["LANGS", "MAX_NAMES", "chinese_name", "english_name", "japanese_name", "random_names"]
