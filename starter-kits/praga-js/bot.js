// A Praga Caput Regni bot for Meeple Arena in JavaScript (Node.js, no packages): start here.
//
// The host sends one JSON message per line on stdin and reads one per line on stdout; stderr
// is your log (you can read it after each game). See README.md for the messages, the
// observation and the options.
"use strict";

const fs = require("fs");
const path = require("path");
const readline = require("readline");

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

// Every hex tile's printed data by id, from the components.json that comes with the kit: the
// city's buildings in the observation name only their tile, and this says what is on it.
const COMPONENTS = kitData("components.json") || { tiles: { tiles: [] } };
const TILES = Object.fromEntries(COMPONENTS.tiles.tiles.map((tile) => [tile.id, tile]));

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
    this.below = makeRng(2000 + this.seat);
  }

  /** The index of the option to play. */
  choose(kind, observation, options) {
    if (kind === "turn") return this.turn(options);
    if (kind === "mine") return this.mine(observation, options);
    return this.below(options.length); // a kind of decision this bot has no idea about
  }

  pick(indices) {
    return indices[this.below(indices.length)];
  }

  /** Take an action tile from the crane; refresh a row only when nothing else is left. */
  turn(options) {
    const tiles = [];
    const others = [];
    options.forEach((option, i) => {
      if (option.kind === "take_tile") tiles.push(i);
      else if (option.kind !== "refresh") others.push(i);
    });
    if (tiles.length) return this.pick(tiles);
    if (others.length) return this.pick(others);
    return this.below(options.length);
  }

  /** Alternate: advance in the mine on even turns, produce on odd ones. */
  mine(observation, options) {
    const wanted = (observation.turn || 0) % 2 === 0 ? "advance" : "produce";
    const i = options.findIndex((option) => option.mode === wanted);
    return i < 0 ? 0 : i;
  }
}

function main() {
  let bot = null;
  const lines = readline.createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    if (!line.trim()) return;
    const message = JSON.parse(line);
    if (message.type === "start") {
      bot = new Bot(message);
      log("knows", Object.keys(TILES).length, "hex tiles");
      send({ type: "ready", name: "praga-starter-js" });
    } else if (message.type === "decide") {
      for (const fault of message.faults || []) log("the host reported a fault of mine:", fault);
      const choice = bot.choose(message.kind, message.observation, message.options);
      send({ type: "act", id: message.id, choice: choice });
    } else if (message.type === "end") {
      log("game over, my rank:", message.result.ranks[bot.seat]);
      lines.close();
    }
  });
}

main();
