/* Citadels drawing for the Meeple Arena viewer: draws a frame of engine/citadels/view.py. */
(function () {
  "use strict";
  var COLOURS = { noble: "#e9c545", religious: "#5b8fd6", trade: "#5fb760", military: "#d65b5b", special: "#9b6cc9" };

  function districtName(ctx, id) {
    var d = ctx.legend.districts[id];
    return d ? d.name + " " + d.zh : id;
  }
  function characterName(ctx, id) {
    var c = ctx.legend.characters[id];
    return c ? c.rank + " " + c.name + " " + c.zh : id;
  }

  function card(ctx, id, x, extra) {
    var d = ctx.legend.districts[id] || { name: id, zh: "", colour: "special", cost: "?" };
    var e = ctx.esc, fill = COLOURS[d.colour] || "#ccc";
    return "<g class='cd-card' data-district='" + e(id) + "' transform='translate(" + x + ",0)'>" +
      "<title>" + e(d.name + " " + d.zh + " · " + d.colour + " · cost " + d.cost) + "</title>" +
      "<rect width='62' height='78' rx='5' fill='" + fill + "' stroke='#333' stroke-width='.8'/>" +
      "<rect x='3' y='22' width='56' height='52' rx='3' fill='#fffdf5'/>" +
      "<circle cx='12' cy='11' r='8' fill='#f5d442' stroke='#7a5c00'/>" +
      "<text x='12' y='15' font-size='11' text-anchor='middle' font-weight='700'>" + e(d.cost) + "</text>" +
      (extra && extra.beautified ? "<circle cx='50' cy='11' r='6' fill='#f5d442' stroke='#7a5c00'><title>an Artist's gold</title></circle>" : "") +
      "<text x='31' y='40' font-size='9.5' text-anchor='middle'>" + e(d.name) + "</text>" +
      "<text x='31' y='56' font-size='11' text-anchor='middle'>" + e(d.zh) + "</text></g>";
  }

  function row(ctx, ids, extras, cls) {
    if (!ids.length) return "<div class='mv-facts'>—</div>";
    var width = ids.length * 66;
    var parts = ids.map(function (id, i) { return card(ctx, id, i * 66, extras && extras[i]); });
    return "<svg class='" + cls + "' width='" + width + "' height='80' viewBox='0 0 " + width + " 80'>" +
      parts.join("") + "</svg>";
  }

  var EVENTS = {
    round: function (e, c) { return "Round " + e.round + " begins; " + c.seat(e.crown) + " has the crown" + (e.face_up && e.face_up.length ? "; face up: " + e.face_up.map(c.ch).join(", ") : ""); },
    absent: function (e, c) { return c.ch(e.character) + " is called: nobody"; },
    reveal: function (e, c) { return c.seat(e.seat) + " reveals " + c.ch(e.character) + (e.hospital ? " (killed, Hospital)" : ""); },
    reveal_killed: function (e, c) { return c.seat(e.seat) + " was the killed " + c.ch(e.character); },
    killed: function (e, c) { return c.ch(e.character) + " is killed"; },
    robbed: function (e, c) { return c.ch(e.character) + " is robbed"; },
    bewitched: function (e, c) { return c.ch(e.character) + " is bewitched"; },
    stolen: function (e, c) { return c.seat(e.to) + " steals " + e.gold + " gold from " + c.seat(e.from); },
    tax: function (e, c) { return c.seat(e.from) + " pays tax to " + c.seat(e.to); },
    abbot_tax: function (e, c) { return c.seat(e.from) + " gives 1 gold to the Abbot, " + c.seat(e.to); },
    tribute: function (e, c) { return c.seat(e.from) + " pays tribute (" + e.paid + ") to " + c.seat(e.to); },
    action: function (e, c) { return c.seat(e.seat) + " takes " + (e.took === "gold" ? "2 gold" : "cards"); },
    income: function (e, c) { return c.seat(e.seat) + " collects " + e.gold + " gold of income"; },
    built: function (e, c) { return c.seat(e.seat) + " builds " + c.di(e.district); },
    completed: function (e, c) { return c.seat(e.seat) + " completes the city" + (e.first ? " first" : ""); },
    destroyed: function (e, c) { return c.seat(e.seat) + " destroys " + c.seat(e.victim) + "'s " + c.di(e.district) + (e.by ? " (" + e.by + ")" : ""); },
    graveyard: function (e, c) { return c.seat(e.seat) + " recovers " + c.di(e.district) + " (Graveyard)"; },
    exchanged: function (e, c) { return c.seat(e.seat) + " exchanges " + c.di(e.gave) + " for " + c.seat(e.victim) + "'s " + c.di(e.took) + (e.paid ? ", paying " + e.paid : ""); },
    crown: function (e, c) { return c.seat(e.seat) + " takes the crown"; },
    swap_hands: function (e, c) { return c.seat(e.seat) + " swaps hands with " + c.seat(e.with); },
    discard_draw: function (e, c) { return c.seat(e.seat) + " discards and draws " + e.count; },
    wizard: function (e, c) { return c.seat(e.seat) + " takes a card from " + c.seat(e.from) + "'s hand"; },
    navigate: function (e, c) { return c.seat(e.seat) + " navigates: 4 " + e.took; },
    queen: function (e, c) { return c.seat(e.seat) + " gets " + e.gold + " gold (Queen)"; },
    beautified: function (e, c) { return c.seat(e.seat) + " beautifies " + c.di(e.district); },
    game_over: function (e) { return "The game ends" + (e.stalemate ? " (stalemate)" : ""); }
  };

  function eventText(e, c) {
    var f = EVENTS[e.event];
    if (f) return f(e, c);
    var parts = [];
    for (var k in e) if (k !== "event") parts.push(k + " " + (k === "seat" ? c.seat(e[k]) : e[k]));
    return e.event.replace(/_/g, " ") + (parts.length ? ": " + parts.join(", ") : "");
  }

  function draw(frame, ctx) {
    var e = ctx.esc, t = frame.table, d = frame.decision;
    var c = { seat: ctx.seatName, ch: function (id) { return characterName(ctx, id); }, di: function (id) { return districtName(ctx, id); } };
    var active = d ? d.seat : -1, sections = [];
    var html = "<div class='mv-table' id='cd-table'>" +
      "<span>Round <b id='cd-round'>" + e(t.round) + "</b></span>" +
      "<span>Phase <b>" + e(t.phase) + "</b></span>" +
      "<span>Bank <b>" + e(t.bank) + "</b> gold</span>" +
      "<span>Deck <b>" + e(t.deck_size) + "</b></span>" +
      (t.calling ? "<span>Calling <b>" + e(c.ch(t.calling)) + "</b></span>" : "") +
      (t.killed ? "<span>Killed <b>" + e(c.ch(t.killed)) + "</b></span>" : "") +
      (t.robbed ? "<span>Robbed <b>" + e(c.ch(t.robbed)) + "</b></span>" : "") +
      (t.bewitched ? "<span>Bewitched <b>" + e(c.ch(t.bewitched)) + "</b></span>" : "") +
      "<span>Ends at <b>" + e(t.end_districts) + "</b> districts" + (t.end_triggered ? " (last round)" : "") + "</span></div>";
    html += "<div class='mv-section'><h3>Draft</h3><div class='mv-facts' id='cd-draft'>" +
      "Face up: " + (t.face_up.length ? t.face_up.map(function (x) { return e(c.ch(x)); }).join(", ") : "none") +
      " · order from the crown: " + draftOrder(t, ctx) +
      (d && /^draft/.test(d.kind) ? " · now choosing: <b>" + e(ctx.seatName(d.seat)) + "</b>" : "") + "</div></div>";
    sections.push(["table", html]);
    for (var s = 0; s < t.players; s++) {
      var mine = frame.private[String(s)];
      var city = t.cities[s];
      var revealed = frame.revealed[s] || [];
      var held = mine ? mine.my_characters : [];
      var hand = "";
      if (mine) {
        hand = "<div class='mv-facts'>hand:</div>" + row(ctx, mine.hand, null, "cd-hand");
        if (mine.pending) hand += "<div class='mv-facts'>pending: " + e(JSON.stringify(mine.pending)) + "</div>";
      }
      sections.push(["seat" + s, [
        "<h4>" + (t.crown === s ? "<span title='crown 皇冠' class='cd-crown'>♛</span> " : "") + e(ctx.seatName(s)) +
        (t.completed[s] ? " <span title='completed city'>(city complete)</span>" : "") + "</h4>" +
        "<div class='mv-facts'>gold <b class='cd-gold'>" + e(t.gold[s]) + "</b> · hand <b class='cd-hand-size'>" + e(t.hand_sizes[s]) +
        "</b> · districts <b class='cd-city-size'>" + city.length + "</b>" + (t.museum[s] ? " · museum " + t.museum[s] : "") +
        (frame.scores && !frame.result ? " · score now <b class='cd-running-score'>" + e(frame.scores[s]) + "</b>" : "") + "</div>" +
        "<div class='mv-facts cd-characters'>" +
        (revealed.length ? "revealed: " + revealed.map(function (x) { return e(c.ch(x)); }).join(", ") : "") +
        (held.length ? (revealed.length ? " · " : "") + "holds: " + held.map(function (x) { return e(c.ch(x)); }).join(", ") : "") + "</div>",
        row(ctx, city.map(function (x) { return x.district; }), city, "cd-city"),
        hand,
        frame.result ? "<div class='mv-facts'>score <b class='cd-score'>" + e(frame.result.scores[s]) + "</b> · rank " +
          e(frame.result.ranks[s]) + (frame.result.winners.indexOf(s) >= 0 ? " ★ winner" : "") + "</div>" : ""
      ], { "class": "mv-seat" + (s === active ? " mv-active" : ""), id: "cd-seat-" + s, "data-seat": s }]);
    }
    // The whole log, oldest first, one part per event: a step adds or drops only its own
    // events and unmarks the ones it marked before (the box keeps the newest in sight).
    var events = t.events, items = [];
    var before = ctx.index > 0 ? ctx.frame(ctx.index - 1).table.events.length : events.length;
    for (var i = 0; i < events.length; i++) {
      items.push("<span" + (i >= before ? " class='mv-new'" : "") + ">" + (i + 1) + ". " + e(eventText(events[i], c)) + "</span>");
    }
    sections.push(["log", ["<h3>Event log</h3>", [items]], { "class": "mv-section mv-eventlog", id: "cd-log" }]);
    return sections;
  }

  function draftOrder(t, ctx) {
    var out = [];
    for (var k = 0; k < t.players; k++) out.push(ctx.esc(ctx.seatName((t.crown + k) % t.players)));
    return out.join(" → ");
  }

  MeepleViewer.register("citadels", {
    draw: draw,
    turnKey: function (f) { return f.table.round + ":" + f.table.phase + ":" + (f.decision ? (f.table.phase === "draft" ? f.decision.seat : f.table.calling) : "end"); },
    roundKey: function (f) { return String(f.table.round) + (f.decision ? "" : ":end"); }
  });
})();
