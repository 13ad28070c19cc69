// A Citadels bot for Meeple Arena in C++17, standard library only: start from here.
//
// The host sends one JSON message per line on stdin and reads one per line on stdout; stderr
// is your log (you can read it after each game). See README.md for the messages, the
// observation and the options. Build with `make` (the command is also in bot.json).
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "json.hpp"

namespace {

// Characters in the order this bot likes to draft them; Dark City characters it does not
// know come after these, in the order they are offered.
const std::vector<std::string> kPreferred = {"architect", "merchant", "king",     "warlord",
                                             "bishop",    "thief",    "magician", "assassin"};

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
};

class Bot {
 public:
  Bot(int seat, std::map<std::string, int> costs)
      : seat_(seat), costs_(std::move(costs)), rng_(1000 + seat) {}

  // The index of the option to play.
  size_t choose(const std::string& kind, const json::Value& observation,
                const json::Value& options) {
    if (kind == "draft_pick") return draft_pick(options);
    if (kind == "action") return action(observation, options);
    if (kind == "keep") return most_expensive(options, "keep");
    if (kind == "turn") return turn(options);
    return rng_.below(options.size());  // a kind of decision this bot does not know yet
  }

  int seat() const { return seat_; }

 private:
  int seat_;
  std::map<std::string, int> costs_;  // district id -> cost, from cards.json
  Rng rng_;

  size_t draft_pick(const json::Value& options) {
    size_t best = 0, best_rank = kPreferred.size() + 1;
    for (size_t i = 0; i < options.size(); ++i) {
      const json::Value& character = options[i]["character"];
      size_t rank = kPreferred.size();
      if (character.is_string()) {
        auto at = std::find(kPreferred.begin(), kPreferred.end(), character.as_string());
        rank = static_cast<size_t>(at - kPreferred.begin());
      }
      if (rank < best_rank) best = i, best_rank = rank;
    }
    return best;
  }

  // Gold while the hand has districts to build, cards when it runs dry.
  size_t action(const json::Value& observation, const json::Value& options) {
    std::string wanted = observation["hand"].size() ? "take_gold" : "draw_cards";
    for (size_t i = 0; i < options.size(); ++i) {
      if (options[i]["kind"].as_string() == wanted) return i;
    }
    return 0;
  }

  int cost(const json::Value& option) const {
    auto found = costs_.find(option["district"].is_string() ? option["district"].as_string() : "");
    return found == costs_.end() ? 0 : found->second;
  }

  // Of the options of ``kind``, the one with the dearest district (they score their cost).
  size_t most_expensive(const json::Value& options, const std::string& kind) {
    size_t best = options.size();
    for (size_t i = 0; i < options.size(); ++i) {
      if (options[i]["kind"].as_string() != kind) continue;
      if (best == options.size() || cost(options[i]) > cost(options[best])) best = i;
    }
    return best == options.size() ? rng_.below(options.size()) : best;
  }

  // Build the dearest district offered; sometimes use a character ability; else end the turn.
  size_t turn(const json::Value& options) {
    std::vector<size_t> abilities;
    size_t end_turn = 0;
    bool can_build = false;
    for (size_t i = 0; i < options.size(); ++i) {
      const std::string& kind = options[i]["kind"].as_string();
      if (kind == "build") can_build = true;
      else if (kind == "end_turn") end_turn = i;
      else abilities.push_back(i);
    }
    if (can_build) return most_expensive(options, "build");
    if (!abilities.empty() && rng_.below(2) == 0) return abilities[rng_.below(abilities.size())];
    return end_turn;
  }
};

// District costs by id from cards.json, which comes with the kit (the working directory).
std::map<std::string, int> load_costs() {
  std::ifstream file("cards.json");
  std::stringstream text;
  text << file.rdbuf();
  json::Value cards = json::parse(text.str());  // a named value: the loop reads into it
  std::map<std::string, int> costs;
  for (const json::Value& district : cards["districts"].as_array()) {
    costs[district["id"].as_string()] = static_cast<int>(district["cost"].as_int());
  }
  return costs;
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::string line;
  if (!std::getline(std::cin, line)) return 1;
  json::Value start = json::parse(line);
  Bot bot(static_cast<int>(start["seat"].as_int()), load_costs());
  send(R"({"type": "ready", "name": "citadels-starter-cpp"})");
  json::Value events = json::Value::array();  // the whole public event log
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    json::Value message = json::parse(line);
    const std::string& type = message["type"].as_string();
    if (type == "decide") {
      // Each decide brings only the events that are new since the previous one.
      json::Value log = json::Value::array();
      size_t from = static_cast<size_t>(message["events_from"].as_int());
      for (size_t i = 0; i < from && i < events.size(); ++i) log.push_back(events[i]);
      for (const json::Value& event : message["observation"]["events"].as_array()) {
        log.push_back(event);
      }
      events = log;
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
