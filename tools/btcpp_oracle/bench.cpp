// Side-by-side benchmark of BehaviorTree.CPP 4.10 on the shared bench trees and schedule
// (shared/bench/README.md): ticks with tickExactlyOnce, untraced, the schedule's keys created
// untyped before the tree is built and written as ints when they change; and the time of
// createTreeFromText on the same XML.
//
//   bench TREE.xml TICKS LOADS  ->  {"ns_per_tick": F, "load_us": F}   (medians of 5)

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "behaviortree_cpp/bt_factory.h"

#include "bench_leaves.hpp"

namespace
{
const char* KEYS[7] = { "control_state", "assist_request", "game_state", "role",
                        "ball_visible",  "ball_close",     "sel" };

void schedule(uint64_t i, int out[7])
{
  const uint64_t c = (i >> 10) % 16;
  static const int GAME[8] = { 0, 1, 2, 3, 3, 3, 3, 4 };
  out[0] = c == 0 ? 1 : (c == 1 ? 2 : 3);
  out[1] = int((i >> 2) & 1);
  out[2] = GAME[(i >> 6) % 8];
  out[3] = int((i >> 9) & 1);
  out[4] = ((i >> 4) & 3) != 0 ? 1 : 0;
  out[5] = ((i >> 3) % 3 == 0) ? 1 : 0;
  out[6] = 999;
}

double median(std::vector<double> v)
{
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv)
{
  if(argc < 4)
  {
    std::cerr << "usage: bench TREE.xml TICKS LOADS" << std::endl;
    return 2;
  }
  std::ifstream file(argv[1]);
  std::stringstream text;
  text << file.rdbuf();
  const std::string xml = text.str();
  const uint64_t ticks = std::stoull(argv[2]);
  const int loads = std::stoi(argv[3]);
  BT::BehaviorTreeFactory factory;
  bench_leaves::registerAll(factory);
  using Clock = std::chrono::steady_clock;

  std::vector<double> load_runs;
  for(int rep = 0; rep < 5; rep++)
  {
    auto t0 = Clock::now();
    for(int k = 0; k < loads; k++)
    {
      auto bb = BT::Blackboard::create();
      auto tree = factory.createTreeFromText(xml, bb);
    }
    auto t1 = Clock::now();
    load_runs.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / loads);
  }

  auto bb = BT::Blackboard::create();
  for(auto key : KEYS)
  {
    bb->createEntry(key, BT::PortInfo());
  }
  auto tree = factory.createTreeFromText(xml, bb);
  int last[7] = { -1, -1, -1, -1, -1, -1, -1 };
  std::vector<double> tick_runs;
  for(int rep = 0; rep < 5; rep++)
  {
    auto t0 = Clock::now();
    for(uint64_t i = 0; i < ticks; i++)
    {
      int now[7];
      schedule(i, now);
      for(int k = 0; k < 7; k++)
      {
        if(now[k] != last[k])
        {
          bb->set(KEYS[k], now[k]);
          last[k] = now[k];
        }
      }
      tree.tickExactlyOnce();
    }
    auto t1 = Clock::now();
    tick_runs.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / ticks);
  }
  std::cout << "{\"ns_per_tick\": " << median(tick_runs)
            << ", \"load_us\": " << median(load_runs) << "}" << std::endl;
  return 0;
}
