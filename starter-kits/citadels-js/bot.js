// A Citadels bot for Meeple Arena in JavaScript (Node.js, no packages): start from here.
//
// The host sends one JSON message per line on stdin and reads one per line on stdout; stderr
// is your log (you can read it after each game). See README.md for the messages, the
// observation and the options.
"use strict";

const fs = require("fs");
const path = require("path");
const readline = require("readline");

// Characters in the order this bot likes to draft them; Dark City characters it does not
// know come after these, in the order they are offered.
const PREFERRED = ["architect", "merchant", "king", "warlord", "bishop", "thief", "magician", "assassin"];

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n"); // a pipe: written at once
}

function log(...parts) {
  console.error(...parts);
}

// A data file of the kit next to bot.js, or null when bot.js was uploaded on its own.
function kitData(name) {
  const file = path.join(__dirname, name);
  if (!fs.existsSync(file)) {
    log(`no ${name} beside bot.js: playing without it (upload the kit's folder as a zip)`);
    return null;
  }
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

// District costs by id, from the cards.json that comes with the kit (without it every
// district looks alike and the bot builds the first one offered).
const CARDS = kitData("cards.json") || { districts: [] };
const COST = Object.fromEntries(CARDS.districts.map((d) => [d.id, d.cost]));

// A small fixed-seed generator, so games replay the same way (Math.random has no seed).
function makeRng(seed) {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 4294967296) * n);
  };
}

class Bot {
  constructor(start) {
    this.seat = start.seat;
    this.players = start.players;
    this.below = makeRng(1000 + this.seat);
  }

  /** The index of the option to play. */
  choose(kind, observation, options) {
    const strategies = { draft_pick: this.draftPick, action: this.action, keep: this.keep, turn: this.turn };
    const strategy = strategies[kind];
    if (strategy === undefined) return this.below(options.length); // a kind it does not know yet
    return strategy.call(this, observation, options);
  }

  draftPick(observation, options) {
    const rank = (option) => {
      const at = PREFERRED.indexOf(option.character);
      return at < 0 ? PREFERRED.length : at;
    };
    let best = 0;
    options.forEach((option, i) => {
      if (rank(option) < rank(options[best])) best = i;
    });
    return best;
  }

  /** Gold while the hand has districts to build, cards when it runs dry. */
  action(observation, options) {
    const wanted = observation.hand.length ? "take_gold" : "draw_cards";
    const i = options.findIndex((option) => option.kind === wanted);
    return i < 0 ? 0 : i;
  }

  /** Keep the dearest card: a district scores its cost. */
  keep(observation, options) {
    return this.dearest(options, "keep");
  }

  /** Build the dearest district offered; sometimes use a character ability; else end the turn. */
  turn(observation, options) {
    if (options.some((option) => option.kind === "build")) return this.dearest(options, "build");
    const abilities = [];
    options.forEach((option, i) => {
      if (option.kind !== "end_turn") abilities.push(i);
    });
    if (abilities.length && this.below(2) === 0) return abilities[this.below(abilities.length)];
    const end = options.findIndex((option) => option.kind === "end_turn");
    return end < 0 ? 0 : end;
  }

  dearest(options, kind) {
    let best = -1;
    options.forEach((option, i) => {
      if (option.kind !== kind) return;
      if (best < 0 || (COST[option.district] || 0) > (COST[options[best].district] || 0)) best = i;
    });
    return best < 0 ? this.below(options.length) : best;
  }
}

function main() {
  let bot = null;
  let events = []; // the whole public event log; each decide brings only what is new
  const lines = readline.createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    if (!line.trim()) return;
    const message = JSON.parse(line);
    if (message.type === "start") {
      bot = new Bot(message);
      send({ type: "ready", name: "citadels-starter-js" });
    } else if (message.type === "decide") {
      const observation = message.observation;
      events = events.slice(0, message.events_from).concat(observation.events);
      observation.events = events;
      for (const fault of message.faults || []) log("the host reported a fault of mine:", fault);
      const choice = bot.choose(message.kind, observation, message.options);
      send({ type: "act", id: message.id, choice: choice });
    } else if (message.type === "end") {
      log("game over, my rank:", message.result.ranks[bot.seat]);
      lines.close();
    }
  });
}

main();
