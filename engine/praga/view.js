/* Praga Caput Regni drawing for the Meeple Arena viewer: draws a frame of engine/praga/view.py. */
(function () {
  "use strict";
  var SEAT_COLOURS = ["#d9534f", "#3b7dd8", "#3fa34d", "#e0a526"];
  var ZONE_COLOURS = { red: "#f3c2c2", green: "#c8e6c0", blue: "#c4d8f2", past: "#e2e2e2" };
  var CODE_FILL = { S: "#e8d28a", b: "#f4efe4", o: "#e9d7c3", "=": "#b8a07a", "~": "#8fb8de", h: "#c98b7a", ".": "#b9d8a4" };
  var SHORT = { mines: "mine", quarries: "quarry", upgrade: "upgr", wall: "wall", building: "bldg", road: "road" };

  /* Names people read, from the legend (engine/praga/names.py): never a raw id. */
  function amount(ctx, key, n) {
    var names = ctx.legend.resources[key] || [key.replace(/_/g, " "), key.replace(/_/g, " ")];
    return n + " " + (n === 1 ? names[0] : names[1]);
  }
  function rewardText(ctx, values) {
    var keys = Object.keys(values || {});
    return keys.length ? keys.map(function (k) { return amount(ctx, k, values[k]); }).join(" + ") : "nothing";
  }
  function named(table, id, fallback) { return (table && table[id]) || fallback; }

  function hexPoints(x, y, size) {
    var pts = [];
    for (var k = 0; k < 6; k++) {
      var a = Math.PI / 180 * (60 * k - 30);
      pts.push((x + size * Math.cos(a)).toFixed(1) + "," + (y + size * Math.sin(a)).toFixed(1));
    }
    return pts.join(" ");
  }
  function centre(q, r, size) { return [size * Math.sqrt(3) * (q + r / 2), size * 1.5 * r]; }

  function citySvg(frame, ctx) {
    var e = ctx.esc, size = 24, cells = ctx.legend.city, t = frame.table;
    var built = {}, squares = {};
    t.city.buildings.forEach(function (b) { built[b.hex] = b; });
    t.city.squares.forEach(function (s) { squares[s.hex] = s; });
    var xs = cells.map(function (c) { return centre(c.q, c.r, size); });
    var minX = Math.min.apply(null, xs.map(function (p) { return p[0]; })) - size - 2;
    var maxX = Math.max.apply(null, xs.map(function (p) { return p[0]; })) + size + 2;
    var maxY = Math.max.apply(null, xs.map(function (p) { return p[1]; })) + size + 2;
    var out = "";
    cells.forEach(function (c, h) {
      var x = xs[h][0] - minX, y = xs[h][1] + size + 2, fill = CODE_FILL[c.code[0]] || "#fff", label = "", tip = "hex " + h;
      var b = built[h], sq = squares[h];
      if (b) {
        fill = b.cube >= 0 ? SEAT_COLOURS[b.cube % 4] : "#9a8f80";
        label = "⌂";
        tip = named(ctx.legend.tiles, b.tile, "Building tile 建筑板块") + (b.cube >= 0 ? " · " + ctx.seatName(b.cube) : "");
      } else if (sq) {
        label = "square";
        tip = named(ctx.legend.squares, sq.tile, "Square 广场") + (sq.resolved ? " (resolved)" : "");
      }
      out += "<g class='pr-hex' data-hex='" + h + "'" + (b ? " data-tile='" + e(b.tile) + "'" : "") + "><title>" + e(tip) + "</title>" +
        "<polygon points='" + hexPoints(x, y, size - 1) + "' fill='" + fill + "' stroke='#666' stroke-width='.7'/>" +
        (label ? "<text x='" + x.toFixed(1) + "' y='" + (y + 3).toFixed(1) + "' font-size='8.5' text-anchor='middle'>" + e(label) + "</text>" : "") + "</g>";
    });
    var w = (maxX - minX).toFixed(0), hgt = (maxY + size + 2).toFixed(0);
    return "<svg id='pr-city' width='" + w + "' height='" + hgt + "' viewBox='0 0 " + w + " " + hgt + "'>" + out + "</svg>";
  }

  function craneSvg(frame, ctx) {
    var e = ctx.esc, crane = frame.table.crane, R = 92, cx = 120, cy = 120, out = "";
    var zones = ctx.legend.frame;
    for (var p = 0; p < 12; p++) {
      var a = (Math.PI * 2 * p) / 12 - Math.PI / 2;
      var x = cx + R * Math.cos(a), y = cy + R * Math.sin(a);
      out += "<circle cx='" + x.toFixed(1) + "' cy='" + y.toFixed(1) + "' r='24' fill='" + (ZONE_COLOURS[zones[p]] || "#eee") + "' stroke='#999'/>";
    }
    crane.tiles.forEach(function (tile) {
      var a = (Math.PI * 2 * tile.position) / 12 - Math.PI / 2;
      var x = cx + R * Math.cos(a), y = cy + R * Math.sin(a);
      var tip = "Action tile 行动板块: " + tile.actions.map(function (n) { return ctx.legend.actions[n] || n; }).join(" / ") +
        " · " + tile.zone + " zone" + (tile.cost ? " · costs " + amount(ctx, "gold", tile.cost) : "") + (tile.points ? " · " + amount(ctx, "vp", tile.points) : "");
      out += "<g class='pr-crane-tile' data-tile='" + tile.tile + "' data-position='" + tile.position + "'><title>" + e(tip) + "</title>" +
        "<rect x='" + (x - 21).toFixed(1) + "' y='" + (y - 14).toFixed(1) + "' width='42' height='28' rx='4' fill='#fffdf5' stroke='#333'/>" +
        "<text x='" + x.toFixed(1) + "' y='" + (y - 2).toFixed(1) + "' font-size='9' text-anchor='middle'>" + e(SHORT[tile.actions[0]] || tile.actions[0]) + "</text>" +
        "<text x='" + x.toFixed(1) + "' y='" + (y + 9).toFixed(1) + "' font-size='9' text-anchor='middle'>" + e(SHORT[tile.actions[1]] || tile.actions[1] || "") + "</text></g>";
    });
    out += "<text x='" + cx + "' y='" + (cy - 4) + "' font-size='11' text-anchor='middle'>crane 起重机</text>" +
      "<text x='" + cx + "' y='" + (cy + 12) + "' font-size='10' text-anchor='middle'>platform " + e(crane.platform) + "/" + e(crane.platform_spaces) + "</text>";
    return "<svg id='pr-crane' width='240' height='240' viewBox='0 0 240 240'>" + out + "</svg>";
  }

  function tileText(tile, ctx) {
    return tile ? named(ctx.legend.tiles, tile.id, "a tile") : "—";
  }

  /* A player's action board: the six actions (an upgraded one shows "+"), walls around. */
  function actionBoardSvg(player, seat, ctx) {
    var size = 13, cells = ctx.legend.action_board, tops = {}, e = ctx.esc, out = "";
    (player.action_board || []).forEach(function (h) { tops[h.hex] = h.tiles[h.tiles.length - 1]; });
    var names = Object.keys(ctx.legend.actions);
    cells.forEach(function (c, h) {
      var p = centre(c.q, c.r, size), x = p[0] + 5 * size, y = p[1] + 4 * size, action = h >= 1 && h <= 6;
      var label = action ? SHORT[names[h - 1]] + (tops[h] ? "+" : "") : (tops[h] ? "wall" : "");
      var fill = tops[h] ? (action ? "#f0d890" : SEAT_COLOURS[seat % 4]) : (action ? "#fbf0c8" : "#fafafa");
      var tip = (action ? ctx.legend.actions[names[h - 1]] : "space " + h) + (tops[h] ? ": " + named(ctx.legend.tiles, tops[h], "a tile") : "");
      out += "<g><title>" + e(tip) + "</title><polygon points='" + hexPoints(x, y, size - .6) + "' fill='" + fill + "' stroke='#888' stroke-width='.5'/>" +
        (label ? "<text x='" + x.toFixed(1) + "' y='" + (y + 2.5).toFixed(1) + "' font-size='6.5' text-anchor='middle'>" + e(label) + "</text>" : "") + "</g>";
    });
    var bw = 10 * size, bh = 8 * size;
    return "<svg class='pr-action-board' width='" + bw + "' height='" + bh + "' viewBox='0 0 " + bw + " " + bh + "'>" + out + "</svg>";
  }

  /* The Hunger Wall and the Cathedral as grids (row 0 at the bottom) with each player's
     marker at its [row, column], and the King's Road as six spaces. */
  function tracksSvg(frame, ctx) {
    var e = ctx.esc, cell = 16, out = "", x0 = 0, players = frame.table.all_players;
    ["hunger_wall", "cathedral"].forEach(function (key) {
      var grid = ctx.legend.tracks[key] || { rows: 6, cols: 6 };
      out += "<text x='" + x0 + "' y='11' font-size='10'>" + e(ctx.legend.structures[key]) + "</text>";
      for (var r = 0; r < grid.rows; r++) {
        for (var c = 0; c < grid.cols; c++) {
          out += "<rect x='" + (x0 + c * cell) + "' y='" + (16 + (grid.rows - 1 - r) * cell) + "' width='" + cell +
            "' height='" + cell + "' fill='" + (key === "cathedral" ? "#eef0fa" : "#f4ece0") + "' stroke='#bbb'/>";
        }
      }
      players.forEach(function (p, s) {
        var at = p[key], cx = x0 + at[1] * cell + 4 + (s % 2) * 8, cy = 16 + (grid.rows - 1 - at[0]) * cell + 4 + Math.floor(s / 2) * 8;
        out += "<circle class='pr-marker' data-track='" + key + "' data-seat='" + s + "' cx='" + cx + "' cy='" + cy +
          "' r='3.5' fill='" + SEAT_COLOURS[s % 4] + "'><title>" + e(ctx.seatName(s) + ": row " + at[0] + ", column " + at[1]) + "</title></circle>";
      });
      x0 += grid.cols * cell + 24;
    });
    out += "<text x='" + x0 + "' y='11' font-size='10'>King's Road 国王大道</text>";
    for (var k = 0; k < 6; k++) {
      out += "<rect x='" + (x0 + k * cell) + "' y='16' width='" + cell + "' height='" + cell + "' fill='#f3e6c4' stroke='#bbb'/>";
    }
    players.forEach(function (p, s) {
      out += "<circle cx='" + (x0 + p.kings_road * cell + 4 + (s % 2) * 8) + "' cy='" + (20 + Math.floor(s / 2) * 8) +
        "' r='3.5' fill='" + SEAT_COLOURS[s % 4] + "'/>";
    });
    var tw = x0 + 6 * cell + 4, th = 16 + 6 * cell + 4;
    return "<svg id='pr-tracks' width='" + tw + "' height='" + th + "' viewBox='0 0 " + tw + " " + th + "'>" + out + "</svg>";
  }

  function draw(frame, ctx) {
    var e = ctx.esc, t = frame.table, d = frame.decision;
    var active = d ? d.seat : -1, sections = [];
    var html = "<div class='mv-table' id='pr-table'><span>Period <b>" + e(t.period) + "</b></span>" +
      "<span>Turn <b id='pr-turn'>" + e(t.turn) + "</b></span>" +
      "<span>Active <b>" + e(ctx.seatName(t.active)) + "</b></span>" +
      "<span>Supply <b>" + e(t.supply.gold_windows) + "</b> gold / <b>" + e(t.supply.silver_windows) + "</b> silver windows</span></div>";
    sections.push(["table", html]);
    sections.push(["crane", craneSvg(frame, ctx), { "class": "mv-inline" }]);
    sections.push(["city", citySvg(frame, ctx), { "class": "mv-inline" }]);
    html = "<div class='mv-section'><h3>Tile rows</h3><table class='pr-rows' tabindex='0'>";
    ["upgrade", "wall", "building"].forEach(function (r) {
      html += "<tr><th>" + e(named(ctx.legend.rows, r, r)) + "</th>" + (t.rows.display[r] || []).map(function (tile) {
        return "<td>" + e(tileText(tile, ctx)) + "</td>";
      }).join("") + "</tr>";
    });
    html += "</table></div>";
    html += "<div class='mv-section'><h3>Charles Bridge 查理大桥</h3><div class='mv-facts'>" +
      t.bridge.planks.map(function (p, i) {
        return "plank " + (i + 1) + ": " + e(p.tile ? named(ctx.legend.bridge, p.tile, "a bridge tile") : rewardText(ctx, p.reward));
      }).join(" · ") + "</div>";
    html += "<div class='mv-facts'>Seals 玺印: " + Object.keys(t.seals).map(function (k) {
      return e(named(ctx.legend.seals, k, "a seal 玺印")) + (t.seals[k] >= 0 ? " (" + e(ctx.seatName(t.seals[k])) + ")" : "");
    }).join(" · ") + "</div></div>";
    sections.push(["rows", html]);
    sections.push(["tracks", "<div class='mv-section'><h3>Tracks</h3>" + tracksSvg(frame, ctx) + "</div>"]);
    t.all_players.forEach(function (p, s) {
      sections.push(["seat" + s, [
        "<h4><span style='color:" + SEAT_COLOURS[s % 4] + "'>●</span> " + e(ctx.seatName(s)) + " — <b class='pr-score'>" + e(p.score) + "</b> points</h4>" +
        "<div class='mv-facts'>gold <b class='pr-gold'>" + e(p.gold) + "</b> · stone <b>" + e(p.stone) + "</b> · windows " + e(p.gold_windows) + " gold / " + e(p.silver_windows) +
        " silver · eggs " + e(p.eggs) + " · cubes " + e(p.cubes) + "</div>" +
        "<div class='mv-facts'>mine " + e(p.gold_mine) + " · quarry " + e(p.quarry) + " · technology " + e(p.technology) + " · university " + e(p.university) +
        " · Hunger Wall " + e(p.hunger_wall.join("/")) + " · Cathedral " + e(p.cathedral.join("/")) + " · King's Road " + e(p.kings_road) + "</div>" +
        "<div class='mv-facts'>walls " + e(p.walls) + " · upgrades " + e(p.upgrades) + " · tokens " + e(p.red_tokens) + " red / " + e(p.blue_tokens) + " blue</div>" +
        (p.technologies.length ? "<div class='mv-facts'>technologies: " + p.technologies.map(function (x) {
          return e(named(ctx.legend.techs, x.tech, "a technology 技术")) + (x.used ? " (used)" : "");
        }).join("; ") + "</div>" : ""),
        actionBoardSvg(p, s, ctx),
        frame.result ? "<div class='mv-facts'>final score <b>" + e(frame.result.scores[s]) + "</b> · rank " + e(frame.result.ranks[s]) +
          (frame.result.winners.indexOf(s) >= 0 ? " ★ winner" : "") + "</div>" : ""
      ], { "class": "mv-seat" + (s === active ? " mv-active" : ""), id: "pr-seat-" + s, "data-seat": s }]);
    });
    return sections;
  }

  MeepleViewer.register("praga", {
    draw: draw,
    turnKey: function (f) { return f.table.turn + ":" + f.table.active + (f.decision ? "" : ":end"); },
    roundKey: function (f) { return Math.floor(f.table.turn / Math.max(1, f.table.players)) + (f.decision ? "" : ":end"); }
  });
})();
