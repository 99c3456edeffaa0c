// Oracle driver for `robot-decision bt`: runs a tree in BehaviorTree.CPP 4.10 with the
// default nodes plus the shared benchmark leaves (CheckKey, Work, Noop), one tick per input
// line, and prints one JSON line per tick in the format of `robot-decision bt`.
//
//   driver TREE.xml IN.jsonl [--typed-first-line]
//
// Input line: {"set": {"KEY": VALUE, ...}}. The values are written into the root blackboard
// (integer -> int, number with a fraction or exponent -> double, true/false -> bool,
// string -> std::string), then the tree is ticked exactly once.
//
// The keys of the first line are created in the root blackboard before the tree is
// instantiated, untyped (any-type port info): the first write fixes each entry's type.
// `--typed-first-line` reproduces the older recording instead: the first line's values are
// written (typed) before the tree is instantiated.
//
// Output line: {"tick": I, "status": S, "trace": [[NAME, S], ...]}, where the trace lists
// every node whose tick was entered during this tick, in the order they returned to their
// parent. A load error prints its message on stderr and exits 1 with nothing on stdout; an
// exception at a tick (or while writing its inputs) prints {"tick": I, "error": "..."} and
// exits 1.

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "behaviortree_cpp/bt_factory.h"
#include "behaviortree_cpp/contrib/json.hpp"

#include "bench_leaves.hpp"

namespace
{

using Json = nlohmann::ordered_json;

// A JSON string literal, escaped like Python's json.dumps (ASCII only).
std::string quote(const std::string& s)
{
  return Json(s).dump(-1, ' ', true);
}

// Writes one JSON value into the blackboard with the C++ type `robot-decision bt` gives it.
void write(BT::Blackboard& bb, const std::string& key, const Json& value)
{
  if(value.is_boolean())
  {
    bb.set<bool>(key, value.get<bool>());
  }
  else if(value.is_number_integer())
  {
    bb.set<int>(key, value.get<int>());
  }
  else if(value.is_number_float())
  {
    bb.set<double>(key, value.get<double>());
  }
  else if(value.is_string())
  {
    bb.set<std::string>(key, value.get<std::string>());
  }
  else
  {
    throw std::runtime_error("unsupported value for key " + key + ": " + value.dump());
  }
}

}  // namespace

int main(int argc, char** argv)
{
  if(argc < 3)
  {
    std::cerr << "usage: driver TREE.xml IN.jsonl [--typed-first-line]\n";
    return 2;
  }
  const std::string tree_path = std::filesystem::absolute(argv[1]).string();
  const bool typed_first_line = argc > 3 && std::string(argv[3]) == "--typed-first-line";

  std::vector<Json> inputs;
  {
    std::ifstream in(argv[2]);
    if(!in)
    {
      std::cerr << "cannot read " << argv[2] << "\n";
      return 2;
    }
    std::string line;
    while(std::getline(in, line))
    {
      if(line.empty())
      {
        continue;
      }
      Json parsed = Json::parse(line);
      inputs.push_back(parsed.contains("set") ? parsed["set"] : Json::object());
    }
  }

  // BT.CPP prints diagnostics (the blackboard dump before a type error, XML warnings) on
  // std::cout: drop them and keep stdout for our lines (stderr gets the error message only).
  std::ostream out_stream(std::cout.rdbuf());
  std::ostringstream chatter;
  struct RestoreCout
  {
    std::streambuf* saved;
    ~RestoreCout()
    {
      std::cout.rdbuf(saved);
    }
  } restore_cout{ std::cout.rdbuf(chatter.rdbuf()) };

  BT::BehaviorTreeFactory factory;
  bench_leaves::registerAll(factory);

  auto root_bb = BT::Blackboard::create();
  BT::Tree tree;
  try
  {
    if(!inputs.empty())
    {
      for(const auto& [key, value] : inputs.front().items())
      {
        if(typed_first_line)
        {
          write(*root_bb, key, value);
        }
        else
        {
          root_bb->createEntry(key, BT::PortInfo());
        }
      }
    }
    tree = factory.createTreeFromFile(tree_path, root_bb);
  }
  catch(const std::exception& e)
  {
    std::cerr << e.what() << "\n";
    return 1;
  }

  std::vector<std::pair<std::string, BT::NodeStatus>> trace;
  tree.applyVisitor([&trace](BT::TreeNode* node) {
    node->setPostTickFunction([&trace](BT::TreeNode& n, BT::NodeStatus status) {
      trace.emplace_back(n.name(), status);
      return BT::NodeStatus::IDLE;  // not completed: no override
    });
  });

  auto bb = tree.rootBlackboard();
  for(size_t i = 0; i < inputs.size(); ++i)
  {
    trace.clear();
    BT::NodeStatus status = BT::NodeStatus::IDLE;
    try
    {
      for(const auto& [key, value] : inputs[i].items())
      {
        write(*bb, key, value);
      }
      status = tree.tickExactlyOnce();
    }
    catch(const std::exception& e)
    {
      out_stream << "{\"tick\": " << i << ", \"error\": " << quote(e.what()) << "}\n";
      out_stream.flush();
      return 1;
    }
    std::ostringstream out;
    out << "{\"tick\": " << i << ", \"status\": " << quote(BT::toStr(status))
        << ", \"trace\": [";
    for(size_t k = 0; k < trace.size(); ++k)
    {
      if(k > 0)
      {
        out << ", ";
      }
      out << "[" << quote(trace[k].first) << ", " << quote(BT::toStr(trace[k].second))
          << "]";
    }
    out << "]}\n";
    out_stream << out.str();
  }
  out_stream.flush();
  return 0;
}
