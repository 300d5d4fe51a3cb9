/* ChronoDice live table page: draws the page data as text (never as HTML, except the .log
   lines, which the server's HTML export escaped) and follows changes over server-sent events,
   reconnecting by itself (a bot restart, a phone waking up). No libraries, no build step. */
(function () {
  "use strict";
  var root = document.getElementById("app");
  var state = document.getElementById("conn");
  var base = location.pathname.replace(/\/+$/, "");
  var source = null;
  var retry = 1000;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent, tag, cls, text) { var e = el(tag, cls, text); parent.appendChild(e); return e; }
  function num(x) { return x === null || x === undefined ? "—" : String(Math.round(x * 100) / 100); }
  function pair(p) { return p ? num(p[0]) + "/" + num(p[1]) : "—"; }
  function section(title) { var s = add(root, "section", "card"); add(s, "h2", "", title); return s; }
  function lines(parent, items, cls) {
    var ul = add(parent, "ul", cls || "recent");
    (items || []).forEach(function (t) { add(ul, "li", "", t); });
    if (!items || !items.length) add(ul, "li", "muted", "（暂无）");
  }

  /* ---------------------------------------------------------------- TimeLine */
  function timeline(d) {
    var head = section("战斗时间 " + num(d.clock) + "t" + (d.started ? "" : "（开场中，GM .bat 开始 后计时）"));
    if (d.next) add(head, "p", "next", "▶ 下一个行动：" + d.next.who.join("、") + "（" + num(d.next.t) + "t）");
    var t0 = Infinity, t1 = d.clock || 0;
    d.bars.forEach(function (b) { t0 = Math.min(t0, b.start); t1 = Math.max(t1, b.end); });
    d.stuns.forEach(function (s) { t1 = Math.max(t1, s.to); });
    if (!isFinite(t0)) t0 = 0;
    t0 = Math.min(t0, d.clock || 0);
    if (t1 - t0 < 1) t1 = t0 + 1;
    var span = t1 - t0;
    function pct(t) { return ((t - t0) / span * 100).toFixed(2) + "%"; }
    var chart = add(head, "div", "chart");
    var tracks = d.rows.map(function (r) {
      var row = add(chart, "div", "row " + r.status);
      add(row, "div", "who", r.name + (r.npc ? "·NPC" : ""));
      return add(row, "div", "track");
    });
    d.stuns.forEach(function (s) {
      var z = add(tracks[s.row] || tracks[0], "div", "stun"); z.style.left = pct(s.from); z.style.width = pct(t0 + Math.max(0, s.to - s.from));
      z.title = "眩晕至" + num(s.to) + "t";
    });
    d.bars.forEach(function (b) {
      var end = b.cancelled !== null ? b.cancelled : b.end;
      var bar = add(tracks[b.row] || tracks[0], "div", "bar" + (b.done ? " done" : "") + (b.cancelled !== null ? " cancelled" : ""));
      bar.style.left = pct(b.start); bar.style.width = pct(t0 + Math.max(0, end - b.start));
      if (b.delay > 0 && b.cancelled === null) {
        var dl = add(bar, "span", "delay"); dl.style.width = (b.delay / Math.max(0.01, end - b.start) * 100).toFixed(1) + "%";
      }
      add(bar, "span", "lbl", "#" + b.id + " " + b.label + (b.target ? "→" + b.target : ""));
      bar.title = "#" + b.id + " " + b.label + " " + num(b.impact) + " " + num(b.start) + "→" + num(b.end) + "t" + (b.note ? " " + b.note : "");
    });
    d.deaths.forEach(function (x) { var m = add(tracks[x.row] || tracks[0], "div", "death", "☠"); m.style.left = pct(x.t); });
    tracks.forEach(function (tr) { var now = add(tr, "div", "now"); now.style.left = pct(d.clock || 0); });
    var axis = add(chart, "div", "axis");
    add(axis, "span", "", num(t0) + "t"); add(axis, "span", "", num(t1) + "t");
    var who = section("角色");
    var table = add(who, "table", "grid");
    var tr = add(table, "tr");
    ["角色", "体力", "意志", "减益", "可行动"].forEach(function (h) { add(tr, "th", "", h); });
    d.rows.forEach(function (r) {
      var row = add(table, "tr", r.status);
      add(row, "td", "", r.name + ({ dead: " ☠", out: "（退出）" }[r.status] || ""));
      add(row, "td", "", pair(r.hp)); add(row, "td", "", pair(r.mp));
      add(row, "td", "", r.debuff ? num(r.debuff) : ""); add(row, "td", "", num(r.free) + "t");
    });
    lines(section("最近结算"), d.recent);
  }

  /* ---------------------------------------------------------------- D20 ticks */
  function tick20(d) {
    var title = (d.title ? d.title + " · " : "") + (d.phase === "setup" ? "战斗准备中" : "第" + d.round + "轮" + (d.tick ? " · 第" + d.tick + "刻" : "")) + "（" + d.variant + "）";
    var head = section(title);
    if (d.current) add(head, "p", "next", "▶ " + d.current + " 的回合");
    if (d.waiting) add(head, "p", "muted", "轮次之间：等待GM .init next");
    var strip = add(head, "div", "ticks");
    for (var t = 20; t >= 1; t--) {
      var here = d.combatants.filter(function (c) { return c.tick === t; });
      var cell = add(strip, "div", "tick" + (d.tick === t ? " cur" : "") + (here.length ? " full" : ""));
      add(cell, "b", "", t);
      if (here.length) add(cell, "span", "", here.length);
      cell.title = here.map(function (c) { return c.name; }).join("、");
    }
    var list = section("参战者");
    d.combatants.forEach(function (c) {
      var row = add(list, "div", "who-card" + (c.current ? " cur" : "") + (c.acted ? " acted" : "") + (c.dead ? " dead" : ""));
      var top = add(row, "div", "top");
      add(top, "b", "", (c.current ? "▶ " : "") + c.name + (c.hidden ? "（暗中）" : ""));
      add(top, "span", "pill", c.tick ? "第" + c.tick + "刻" : (c.pending ? "下轮加入" : "先攻 " + c.value));
      var info = [c.side];
      if (c.ap) info.push("AP " + c.ap[0] + "/" + c.ap[1]);
      if (c.health) info.push(c.health);
      add(row, "div", "muted", info.join("　"));
      if (c.effects) add(row, "div", "fx", c.effects);
    });
    lines(section("最近"), d.recent);
  }

  /* ---------------------------------------------------------------- 萌E */
  function moe(d) {
    var head = section(d.map ? "萌E · " + d.map + " · 第" + d.round + "轮" : "萌E · 等待开始");
    if (d.map) add(head, "p", "muted", "牌堆 " + d.deck + " 张　弃牌堆 " + d.discard + " 张");
    if (d.turn) add(head, "p", "next", "▶ " + d.turn + " 的" + d.phase);
    if (d.result) add(head, "p", "next", d.result);
    var seats = section("座位");
    d.seats.forEach(function (s) {
      var row = add(seats, "div", "who-card" + (s.turn ? " cur" : "") + (s.alive === false ? " dead" : ""));
      var top = add(row, "div", "top");
      add(top, "b", "", (s.turn ? "▶ " : "") + s.label);
      if (s.waiting) { add(row, "div", "muted", "已加入"); return; }
      if (s.alive === false) { add(row, "div", "muted", "已阵亡"); return; }
      if (s.choosing) { add(row, "div", "muted", "选择角色中"); return; }
      add(top, "span", "pill", "手牌 " + s.hand);
      add(row, "div", "", "血量 " + s.hp[0] + "/" + s.hp[1] + "　信仰 " + s.faith[0] + "/" + s.faith[1] +
        (s.secrets ? "　奥秘×" + s.secrets : "") + (s.team ? "　队伍" + s.team : "") + (s.auto ? "　[托管]" : ""));
      add(row, "div", "fx", s.equip.length ? s.equip.join("、") : "无装备");
    });
    lines(section("本回合"), d.recent);
  }

  /* ---------------------------------------------------------------- .log */
  function gamelog(d) {
    var near = window.innerHeight + window.scrollY >= document.body.scrollHeight - 80;
    var head = section("日志「" + d.name + "」" + (d.ended ? "（已结束）" : "（记录中）"));
    add(head, "p", "muted", "共 " + d.total + " 条" + (d.skipped ? "，这里显示最新 " + (d.total - d.skipped) + " 条（完整记录请 .log get）" : ""));
    var box = add(root, "div", "log");
    box.innerHTML = d.html.join(""); /* the export's own blocks: every text escaped there */
    Array.prototype.forEach.call(box.querySelectorAll("[style]"), function (m) {
      var c = /--c:\s*(#[0-9a-fA-F]{3,8})/.exec(m.getAttribute("style") || "");
      m.removeAttribute("style");
      if (c) m.style.setProperty("--c", c[1]);
    });
    if (near) window.scrollTo(0, document.body.scrollHeight);
  }

  /* a log that grew: its new lines only (the oldest dropped so as to keep d.keep) */
  function grow(d) {
    var box = root.querySelector(".log");
    if (!box || !last) { return; }
    last.total = d.total; last.skipped = d.skipped;
    last.html = last.html.concat(d.append).slice(-d.keep);
    draw(last);
  }

  var DRAW = { tl: timeline, tick20: tick20, moe: moe, log: gamelog };

  var last = null;
  function draw(d) {
    last = d;
    var y = window.scrollY;
    root.textContent = "";
    document.title = d.title_kind + (d.gm ? "（GM）" : "") + " · ChronoDice";
    var badge = document.getElementById("role");
    if (badge) badge.textContent = d.gm ? "GM视图" : "";
    (DRAW[d.kind] || function () {})(d);
    if (d.kind !== "log") window.scrollTo(0, y);
    document.body.setAttribute("data-updated", String(Date.now()));
  }
  function status(text, cls) { state.textContent = text; state.className = cls; }
  function ended() {
    if (source) source.close();
    source = null;
    root.textContent = "";
    add(root, "p", "ended", "这场已经结束，链接失效了。");
    status("已结束", "off");
  }
  function connect() {
    source = new EventSource(base + "/events");
    source.onopen = function () { retry = 1000; status("● 实时", "on"); };
    source.onmessage = function (e) {
      var d = JSON.parse(e.data);
      if (d.append) { grow(d); } else { draw(d); }
    };
    source.addEventListener("end", ended);
    source.onerror = function () {
      status("○ 重连中…", "off");
      if (source && source.readyState === 2) {  /* closed for good (an error status): try again */
        source.close();
        source = null;
        fetch(base + "/data", { cache: "no-store" }).then(function (r) {
          if (r.status === 404 || r.status === 410) { ended(); return; }
          setTimeout(connect, retry); retry = Math.min(retry * 2, 10000);
        }, function () { setTimeout(connect, retry); retry = Math.min(retry * 2, 10000); });
      }
    };
  }
  var first = document.getElementById("first");
  if (first) { try { draw(JSON.parse(first.textContent)); } catch (err) { /* the stream will draw */ } }
  connect();
})();
