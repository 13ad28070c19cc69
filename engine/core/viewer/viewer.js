/* Meeple Arena game viewer: the title-neutral player (timeline, buttons, keys, perspective).
   A title's renderer registers itself with MeepleViewer.register(titleId, renderer), where
   renderer.draw(frame, ctx) returns HTML (SVG inside) and renderer.turnKey / roundKey(frame)
   say which turn and round a frame belongs to. The same file serves the game page and the
   offline HTML written by `python -m engine view`. No build step, no dependencies. */
var MeepleViewer = (function () {
  "use strict";
  var renderers = {};

  function esc(text) {
    return String(text === null || text === undefined ? "" : text)
      .replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  /* Patches from engine/core/view.py delta(): [path, value] set, [path] delete,
     [path, items, 1] append. Containers on a patched path are copied once per step, so
     consecutive frames share everything that did not change. */
  function applyPatches(base, patches) {
    var copied = new Set();
    function own(value) {
      if (value === null || typeof value !== "object" || copied.has(value)) return value;
      var twin = Array.isArray(value) ? value.slice() : Object.assign({}, value);
      copied.add(twin);
      return twin;
    }
    var root = base;
    for (var i = 0; i < patches.length; i++) {
      var p = patches[i], path = p[0];
      if (path.length === 0) { root = p.length === 3 ? root.concat(p[1]) : p[1]; continue; }
      root = own(root);
      var node = root;
      for (var k = 0; k < path.length - 1; k++) {
        node[path[k]] = own(node[path[k]]);
        node = node[path[k]];
      }
      var last = path[path.length - 1];
      if (p.length === 1) delete node[last];
      else if (p.length === 3) node[last] = node[last].concat(p[1]);
      else node[last] = p[1];
    }
    return root;
  }

  /* The frames of one perspective, decoded when first needed: a page that opens at the end
     draws the encoder's whole last frame at once, and the frames before it are decoded in
     idle time (or on the way to one asked for). A perspective sent as patches against
     another ("base") decodes each frame from that one's. */
  function Track(encoded, base) {
    this.base = encoded.base !== undefined ? base : null;
    this.encoded = encoded;
    this.length = this.base ? encoded.beside.length : encoded.deltas.length + 1;
    this.cache = new Array(this.length);
    this.upTo = 0;  // every frame up to here is decoded (for a sequence)
    if (!this.base) {
      this.cache[0] = encoded.first;
      if (encoded.last) this.cache[this.length - 1] = encoded.last;
    }
  }

  Track.prototype.get = function (i) {
    var known = this.cache[i];
    if (known !== undefined) return known;
    if (this.base) return (this.cache[i] = applyPatches(this.base.get(i), this.encoded.beside[i]));
    var deltas = this.encoded.deltas;
    while (this.upTo < i) {
      var next = this.upTo + 1;
      if (next < this.length - 1 || this.cache[next] === undefined) {
        this.cache[next] = applyPatches(this.cache[this.upTo], deltas[this.upTo]);
      }
      this.upTo = next;
    }
    return this.cache[i];
  };

  /* Decode the rest a slice at a time when the page is idle, so later steps only draw. */
  Track.prototype.warm = function () {
    var self = this, idle = window.requestIdleCallback || function (f) { return window.setTimeout(f, 16); };
    function slice() {
      var to = Math.min(self.length - 1, (self.base ? self.warmed || 0 : self.upTo) + 60);
      for (var i = self.base ? self.warmed || 0 : self.upTo; i <= to; i++) self.get(i);
      self.warmed = to + 1;
      if (to < self.length - 1) idle(slice);
    }
    idle(slice);
  };

  function seatName(ctx, seat) {
    return seat === null || seat === undefined ? "" : (ctx.data.seats[seat] || "Seat " + (seat + 1));
  }

  /* The decision box is built once and updated in place: a step rewrites only the option
     lines whose text or mark changed, so a long menu costs little to step through. */
  var DECISION_BOX = "<div class='mv-decision'><div class='mv-who'></div>" +
    "<ol class='mv-options' start='0' tabindex='0' aria-label='Options'></ol>" +
    "<div class='mv-hidden'>Options hidden from this perspective.</div>" +
    "<div class='mv-chosen mv-chosen-line' data-chosen='1'></div>" +
    "<div class='mv-note' hidden></div></div>";

  function showDecision(box, frame, ctx) {
    var d = frame.decision, q = function (sel) { return box.querySelector(sel); };
    if (!box.firstChild) box.innerHTML = DECISION_BOX;
    box.firstChild.classList.toggle("mv-over", !d);
    setHtml(q(".mv-who"), d ? "<strong>" + esc(seatName(ctx, d.seat)) + "</strong> " + esc(d.label) :
      "The game is over.");
    var list = q(".mv-options"), options = d && d.options ? d.options : [];
    list.hidden = !(d && d.options);
    while (list.children.length > options.length) list.removeChild(list.lastChild);
    while (list.children.length < options.length) list.appendChild(document.createElement("li"));
    for (var i = 0; i < options.length; i++) {
      var li = list.children[i], mine = i === d.chosen;
      var text = ctx.labels[options[i]] + (mine ? " ◀ chosen" : "");
      if (li.textContent !== text) li.textContent = text;
      if (li.classList.contains("mv-chosen") !== mine) {
        li.classList.toggle("mv-chosen", mine);
        if (mine) li.setAttribute("data-chosen", "1"); else li.removeAttribute("data-chosen");
      }
    }
    q(".mv-hidden").hidden = !d || !!d.options;
    var line = q(".mv-chosen-line"), chosen = d && !d.options && d.chosen_label;
    line.hidden = !chosen;
    if (chosen && line.textContent !== "Chosen: " + chosen) line.textContent = "Chosen: " + chosen;
    // the bot's own log line with this answer (act's "log"): in the data for its owner, and
    // for everyone after the game when the owner shares them
    var notes = d && (ctx.data.decision_logs || {})[String(d.seat)];
    var note = notes && notes[String(ctx.index + 1)], noteBox = q(".mv-note");
    var mine = (ctx.data.own_seats || []).indexOf(d && d.seat) >= 0;
    var text = note && (mine ? "Your bot's note: " : "The bot's note: ") + note;
    noteBox.hidden = !note;
    if (note && noteBox.textContent !== text) noteBox.textContent = text;
  }

  function Viewer(root, data, options) {
    this.root = root;
    this.data = data;
    this.options = options || {};
    this.renderer = renderers[data.title];
    this.tracks = {};
    this.playing = null;
    this.perspective = this.options.perspective || Object.keys(data.perspectives)[0];
    this.written = window.location.hash;  // the address as this viewer last left it
    this.build();
    this.usePerspective(this.perspective, data.perspectives[this.perspective]);
    var start = this.fromHash();
    if (start === null) start = root.getAttribute("data-start") === "end" ? this.frames.length - 1 : 0;
    this.show(start);
  }

  Viewer.prototype.build = function () {
    var self = this, data = this.data;
    var choices = this.options.choices || Object.keys(data.perspectives).map(function (p) {
      return { value: p, label: perspectiveLabel(p, data) };
    });
    var select = "<select class='mv-perspective' aria-label='Perspective'>" + choices.map(function (c) {
      return "<option value='" + esc(c.value) + "'>" + esc(c.label) + "</option>";
    }).join("") + "</select>";
    this.root.innerHTML =
      "<div class='mv-bar'>" +
      "<button data-go='first' title='First (Home)'>|◀</button>" +
      "<button data-go='round-' title='Previous round'>« round</button>" +
      "<button data-go='turn-' title='Previous turn'>‹ turn</button>" +
      "<button data-go='prev' title='Previous decision (←)'>◀</button>" +
      "<button data-go='play' class='mv-play' title='Play (space)'>▶ play</button>" +
      "<button data-go='next' title='Next decision (→)'>▶</button>" +
      "<button data-go='turn+' title='Next turn'>turn ›</button>" +
      "<button data-go='round+' title='Next round'>round »</button>" +
      "<button data-go='last' title='Last (End)'>▶|</button>" +
      "<label>speed <select class='mv-speed'><option value='1'>1/s</option><option value='3' selected>3/s</option>" +
      "<option value='10'>10/s</option><option value='30'>30/s</option></select></label>" +
      "<label>view " + select + "</label>" +
      "<span class='mv-position' aria-live='polite'></span>" +
      " <a class='mv-download-position' hidden>download this position</a></div>" +
      "<div class='mv-timeline'><input type='range' class='mv-scrub' min='0' value='0' aria-label='Timeline'>" +
      "<div class='mv-marks'></div></div>" +
      "<div class='mv-message' role='status'></div>" +
      "<div class='mv-main'><div class='mv-board'></div><div class='mv-side'>" +
      "<div class='mv-decision-box'></div><div class='mv-marklist'></div></div></div>";
    this.q = function (sel) { return self.root.querySelector(sel); };
    this.measureBar();
    this.root.addEventListener("click", function (e) {
      var go = e.target.getAttribute("data-go");
      if (go) self.go(go);
      var jump = e.target.getAttribute("data-frame");
      if (jump !== null) self.show(Number(jump));
    });
    this.q(".mv-scrub").addEventListener("input", function (e) { self.show(Number(e.target.value)); });
    this.q(".mv-perspective").value = this.perspective;
    this.q(".mv-perspective").addEventListener("change", function (e) { self.switchTo(e.target.value); });
    this.root.tabIndex = 0;
    document.addEventListener("keydown", function (e) {
      if (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName) && e.target.type !== "range") return;
      var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last",
        ArrowUp: "turn-", ArrowDown: "turn+", PageUp: "round-", PageDown: "round+", " ": "play" };
      if (keys[e.key]) { e.preventDefault(); self.go(keys[e.key]); }
    });
    window.addEventListener("hashchange", function () {
      self.written = window.location.hash;
      var at = self.fromHash();
      if (at !== null && at !== self.index) self.show(at);
    });
  };

  function perspectiveLabel(p, data) {
    if (p === "public") return "Public";
    if (p === "all") return "Every hand (game over)";
    return "As " + (data.seats[Number(p)] || "Seat " + (Number(p) + 1)) + " (its observation)";
  }

  Viewer.prototype.track = function (name) {
    if (!this.tracks[name]) {
      var encoded = this.data.perspectives[name];
      this.tracks[name] = new Track(encoded, encoded.base !== undefined ? this.track(encoded.base) : null);
    }
    return this.tracks[name];
  };

  Viewer.prototype.usePerspective = function (name, encoded) {
    this.data.perspectives[name] = encoded;
    this.frames = this.track(name);
    this.labels = encoded.labels || this.data.labels;
    this.perspective = name;
    var scrub = this.q(".mv-scrub");
    scrub.max = String(this.frames.length - 1);
    this.drawMarks();
  };

  Viewer.prototype.switchTo = function (name) {
    var self = this;
    if (this.data.perspectives[name]) {
      this.usePerspective(name, this.data.perspectives[name]);
      this.message("");
      this.show(this.index);
      this.frames.warm();
      return;
    }
    if (!this.options.load) return;
    this.message("Loading…");
    this.options.load(name).then(function (answer) {
      if (answer.error) {
        self.message(answer.error);
        self.q(".mv-perspective").value = self.perspective;
        return;
      }
      self.data.perspectives[name] = answer.frames;
      if (answer.marks) self.data.marks = answer.marks;
      self.usePerspective(name, answer.frames);
      self.message("");
      self.show(self.index);
      self.frames.warm();
    });
  };

  Viewer.prototype.message = function (text) {
    var box = this.q(".mv-message");
    box.textContent = text;
    box.style.display = text ? "block" : "none";
  };

  Viewer.prototype.drawMarks = function () {
    var last = Math.max(1, this.frames.length - 1), html = "", list = "";
    var marks = this.data.marks || [];
    for (var i = 0; i < marks.length; i++) {
      var m = marks[i], left = (100 * m.frame / last).toFixed(2);
      html += "<span class='mv-mark mv-" + esc(m.kind) + "' style='left:" + left + "%' title='" +
        esc(m.text) + "' data-frame='" + m.frame + "'></span>";
      list += "<li class='mv-" + esc(m.kind) + "'><a href='#d" + (m.frame + 1) + "' data-frame='" + m.frame +
        "'>" + (m.frame + 1 > this.frames.length - 1 ? "end" : "decision " + (m.frame + 1)) + "</a>: " +
        esc(m.text) + "</li>";
    }
    var logs = this.data.logs || {}, links = Object.keys(logs).map(function (seat) {
      return "<a href='" + esc(logs[seat]) + "' class='mv-log-link'>stderr log of seat " + (Number(seat) + 1) + "</a>";
    });
    this.q(".mv-marks").innerHTML = html;
    this.q(".mv-marklist").innerHTML = (list ? "<h4>Timeline</h4><ul tabindex='0'>" + list + "</ul>" : "") +
      (links.length ? "<div class='mv-logs'>" + links.join(" · ") + "</div>" : "");
  };

  Viewer.prototype.fromHash = function () {
    var match = /^#d(\d+)$/.exec(window.location.hash || "");
    if (!match) return null;
    return Math.max(0, Math.min(this.frames.length - 1, Number(match[1]) - 1));
  };

  Viewer.prototype.show = function (index) {
    index = Math.max(0, Math.min(this.frames.length - 1, index));
    this.index = index;
    var frames = this.frames, frame = frames.get(index);
    var ctx = { data: this.data, legend: this.data.legend, index: index,
      frame: function (i) { return frames.get(i); }, labels: this.labels,
      perspective: this.perspective, esc: esc, seatName: function (s) { return seatName(ctx, s); } };
    this.drawBoard(this.renderer ? this.renderer.draw(frame, ctx) :
      [["none", "<p>No drawing code for " + esc(this.data.title) + ".</p>"]]);
    showDecision(this.q(".mv-decision-box"), frame, ctx);
    this.q(".mv-scrub").value = String(index);
    var total = this.frames.length - 1;
    this.q(".mv-position").textContent = index === total ?
      "End of the game (" + total + " decisions)" : "Decision " + (index + 1) + " of " + total;
    // a finished game's page offers the whole position before this decision (docs/positions.md)
    var download = this.q(".mv-download-position"), at = this.data.position_url;
    download.hidden = !at || index === total;
    if (at && index < total) download.setAttribute("href", at + "?at=" + (index + 1));
    this.root.setAttribute("data-frame", String(index));
    this.address("#d" + (index + 1));
  };

  /* history.replaceState costs a millisecond or two a call: the address follows the
     position once the step is on screen, once for any number of steps in between. */
  Viewer.prototype.address = function (hash) {
    var self = this;
    this.hash = hash;
    if (this.hashPending || !(window.history && window.history.replaceState)) return;
    this.hashPending = true;
    afterPaint(function () {
      self.hashPending = false;
      var now = window.location.hash;
      // An address followed since the last one written here is the person's: its
      // hashchange shows that position, so it is not written over.
      if (now !== self.written && self.fromHash() !== null) return;
      if (now !== self.hash) window.history.replaceState(null, "", self.hash);
      self.written = self.hash;
    });
  };

  /* Run ``f`` after the next frame is painted (a message posted from requestAnimationFrame
     is handled after that frame's rendering). */
  function afterPaint(f) {
    var channel = new MessageChannel();
    channel.port1.onmessage = function () { f(); };
    window.requestAnimationFrame(function () { channel.port2.postMessage(0); });
  }

  /* A renderer draws a frame as sections, [key, html] pairs, where html may also be a list
     of parts, and an optional third item names the section element's attributes (its
     class, id...); a section or part whose HTML is the same as in the frame shown before
     is left alone, so a step parses and lays out only what changed. */
  function setHtml(element, html) {
    if (typeof html !== "string") return setParts(element, html);
    if (element.meepleHtml !== html) {
      element.innerHTML = html;
      element.meepleHtml = html;
      element.meepleParts = null;
    }
  }

  function setParts(element, parts) {
    if (element.meepleParts === undefined || element.meepleParts === null) {
      element.innerHTML = "";
      element.meepleHtml = null;
    }
    var children = element.children;
    while (children.length > parts.length) element.removeChild(element.lastChild);
    while (children.length < parts.length) {
      var sub = document.createElement("div");
      sub.className = "mv-sub";
      element.appendChild(sub);
    }
    element.meepleParts = parts.length;
    for (var i = 0; i < parts.length; i++) setHtml(children[i], parts[i]);
  }

  Viewer.prototype.drawBoard = function (sections) {
    var board = this.q(".mv-board");
    if (typeof sections === "string") sections = [["board", sections]];
    var keys = sections.map(function (s) { return s[0]; }).join("|");
    if (board.meepleKeys !== keys) {
      board.innerHTML = sections.map(function (s) {
        return "<div class='mv-part' data-section='" + esc(s[0]) + "'></div>";
      }).join("");
      board.meepleKeys = keys;
    }
    for (var i = 0; i < sections.length; i++) {
      var part = board.children[i];
      setHtml(part, sections[i][1]);
      setAttributes(part, sections[i][2]);
    }
  };

  function setAttributes(element, attributes) {
    var text = attributes ? JSON.stringify(attributes) : "";
    if (element.meepleAttributes === text) return;
    element.meepleAttributes = text;
    element.className = "mv-part";
    for (var name in attributes || {}) {
      if (name === "class") element.className = "mv-part " + attributes[name];
      else element.setAttribute(name, attributes[name]);
    }
  }

  Viewer.prototype.seek = function (step, keyOf) {
    if (!this.renderer || !keyOf) return;
    var frames = this.frames, here = keyOf(frames.get(this.index)), i = this.index;
    if (step > 0) {
      while (i < frames.length - 1 && keyOf(frames.get(i)) === here) i++;
    } else {  // to where this turn or round began, or from there to the one before's start
      if (i > 0 && keyOf(frames.get(i - 1)) !== here) i--;
      var key = keyOf(frames.get(i));
      while (i > 0 && keyOf(frames.get(i - 1)) === key) i--;
    }
    this.show(i);
  };

  Viewer.prototype.go = function (what) {
    var r = this.renderer || {};
    if (what !== "play") this.stop();
    if (what === "first") this.show(0);
    else if (what === "last") this.show(this.frames.length - 1);
    else if (what === "prev") this.show(this.index - 1);
    else if (what === "next") this.show(this.index + 1);
    else if (what === "turn+") this.seek(1, r.turnKey);
    else if (what === "turn-") this.seek(-1, r.turnKey);
    else if (what === "round+") this.seek(1, r.roundKey);
    else if (what === "round-") this.seek(-1, r.roundKey);
    else if (what === "play") this.playing ? this.stop() : this.play();
    if (what !== "play") this.keepBoardInView();
  };

  /* The sticky step buttons' height, whole pixels up, for the board's height cap. */
  Viewer.prototype.measureBar = function () {
    var under = Math.ceil(this.q(".mv-bar").getBoundingClientRect().height);
    this.root.style.setProperty("--mv-bar-height", under + "px");
    return under;
  };

  /* After a step the person asked for, the board is scrolled whole into the window under
     the sticky step buttons (the CSS caps its height to what is left there, its parts
     scrolling in its own box), however far down they had scrolled to read. */
  Viewer.prototype.keepBoardInView = function () {
    var board = this.q(".mv-board"), bar = this.q(".mv-bar");
    var under = this.measureBar();
    var box = board.getBoundingClientRect();
    if (box.top < under || box.bottom > window.innerHeight) window.scrollBy(0, box.top - under);
  };

  Viewer.prototype.play = function () {
    var self = this, rate = Number(this.q(".mv-speed").value) || 3;
    if (this.index >= this.frames.length - 1) this.show(0);
    this.q(".mv-play").textContent = "❚❚ pause";
    this.playing = window.setInterval(function () {
      if (self.index >= self.frames.length - 1) { self.stop(); return; }
      self.show(self.index + 1);
    }, 1000 / rate);
  };

  Viewer.prototype.stop = function () {
    if (this.playing) window.clearInterval(this.playing);
    this.playing = null;
    var button = this.q(".mv-play");
    if (button) button.textContent = "▶ play";
  };

  return {
    register: function (titleId, renderer) { renderers[titleId] = renderer; },
    boot: function (root, data, options) {
      var viewer = new Viewer(root, data, options);
      root.meepleViewer = viewer;
      afterPaint(function () {
        // bench/viewer.py reads this: when the first frame was on screen.
        if (window.performance && performance.mark) performance.mark("meeple-first-frame");
        viewer.frames.warm();
      });
      return viewer;
    },
    esc: esc
  };
})();
