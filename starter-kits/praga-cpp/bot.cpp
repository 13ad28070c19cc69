// A Praga Caput Regni bot for Meeple Arena in C++17, standard library only: start from here.
//
// The host sends one JSON message per line on stdin and reads one per line on stdout; stderr
// is your log (you can read it after each game). See README.md for the messages, the
// observation and the options. Build with `make` (the command is also in bot.json).
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "json.hpp"

namespace {

void send(const std::string& line) {
  std::cout << line << '\n' << std::flush;  // without the flush the host never sees it
}

// A small fixed-seed generator, so games replay the same way.
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed * 2654435761u + 1) {}
  size_t below(size_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<size_t>((state >> 33) % n);
  }
  size_t pick(const std::vector<size_t>& among) { return among[below(among.size())]; }
};

class Bot {
 public:
  Bot(int seat, std::map<std::string, json::Value> tiles)
      : seat_(seat), tiles_(std::move(tiles)), rng_(2000 + seat) {}

  // The index of the option to play.
  size_t choose(const std::string& kind, const json::Value& observation,
                const json::Value& options) {
    if (kind == "turn") return turn(options);
    if (kind == "mine") return mine(observation, options);
    return rng_.below(options.size());  // a kind of decision this bot has no idea about
  }

  int seat() const { return seat_; }
  size_t known_tiles() const { return tiles_.size(); }

 private:
  int seat_;
  // Every hex tile's printed data by id (from components.json): the city's buildings in the
  // observation name only their tile, and this says what is on it.
  std::map<std::string, json::Value> tiles_;
  Rng rng_;

  // Take an action tile from the crane; refresh a row only when nothing else is left.
  size_t turn(const json::Value& options) {
    std::vector<size_t> tiles, others;
    for (size_t i = 0; i < options.size(); ++i) {
      const std::string& kind = options[i]["kind"].as_string();
      if (kind == "take_tile") tiles.push_back(i);
      else if (kind != "refresh") others.push_back(i);
    }
    if (!tiles.empty()) return rng_.pick(tiles);
    if (!others.empty()) return rng_.pick(others);
    return rng_.below(options.size());
  }

  // Alternate: advance in the mine on even turns, produce on odd ones.
  size_t mine(const json::Value& observation, const json::Value& options) {
    long long turn = observation["turn"].is_number() ? observation["turn"].as_int() : 0;
    std::string wanted = turn % 2 == 0 ? "advance" : "produce";
    for (size_t i = 0; i < options.size(); ++i) {
      if (options[i]["mode"].is_string() && options[i]["mode"].as_string() == wanted) return i;
    }
    return 0;
  }
};

// Hex tiles by id from components.json, which comes with the kit (the working directory).
std::map<std::string, json::Value> load_tiles() {
  std::ifstream file("components.json");
  std::stringstream text;
  text << file.rdbuf();
  json::Value components = json::parse(text.str());  // a named value: the loop reads into it
  std::map<std::string, json::Value> tiles;
  for (const json::Value& tile : components["tiles"]["tiles"].as_array()) {
    tiles[tile["id"].as_string()] = tile;
  }
  return tiles;
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::string line;
  if (!std::getline(std::cin, line)) return 1;
  json::Value start = json::parse(line);
  Bot bot(static_cast<int>(start["seat"].as_int()), load_tiles());
  std::cerr << "knows " << bot.known_tiles() << " hex tiles" << std::endl;
  send(R"({"type": "ready", "name": "praga-starter-cpp"})");
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    json::Value message = json::parse(line);
    const std::string& type = message["type"].as_string();
    if (type == "decide") {
      for (size_t i = 0; i < message["faults"].size(); ++i) {
        std::cerr << "the host reported a fault of mine: " << message["faults"][i].dump()
                  << std::endl;
      }
      size_t choice = bot.choose(message["kind"].as_string(), message["observation"],
                                 message["options"]);
      send("{\"type\": \"act\", \"id\": " + std::to_string(message["id"].as_int()) +
           ", \"choice\": " + std::to_string(choice) + "}");
    } else if (type == "end") {
      std::cerr << "game over, my rank: " << message["result"]["ranks"][bot.seat()].dump()
                << std::endl;
      break;
    }
  }
  return 0;
}
