// The benchmark leaves of shared/bench/README.md (`CheckKey`, `Work`, `Noop`) for
// BehaviorTree.CPP 4.10, shared by the oracle driver and the speed bench.

#pragma once

#include <string>

#include "behaviortree_cpp/bt_factory.h"

namespace bench_leaves
{

// SUCCESS if the int entry named by `key` equals `expect`; FAILURE otherwise, also when the
// entry is missing, empty or not convertible to int.
class CheckKey : public BT::SyncActionNode
{
public:
  CheckKey(const std::string& name, const BT::NodeConfig& config)
    : BT::SyncActionNode(name, config)
  {}

  static BT::PortsList providedPorts()
  {
    return { BT::InputPort<std::string>("key"), BT::InputPort<int>("expect") };
  }

  BT::NodeStatus tick() override
  {
    auto key = getInput<std::string>("key");
    if(!key)
    {
      throw BT::RuntimeError("CheckKey: ", key.error());
    }
    auto expect = getInput<int>("expect");
    if(!expect)
    {
      throw BT::RuntimeError("CheckKey: ", expect.error());
    }
    auto locked = config().blackboard->getAnyLocked(key.value());
    if(!locked || locked.get()->empty())
    {
      return BT::NodeStatus::FAILURE;
    }
    auto value = locked.get()->tryCast<int>();
    if(value && value.value() == expect.value())
    {
      return BT::NodeStatus::SUCCESS;
    }
    return BT::NodeStatus::FAILURE;
  }
};

// RUNNING on its first `ticks` ticks (the starting tick included), SUCCESS on the next;
// `ticks` = 0 succeeds at once; a halt resets it.
class Work : public BT::StatefulActionNode
{
public:
  Work(const std::string& name, const BT::NodeConfig& config)
    : BT::StatefulActionNode(name, config)
  {}

  static BT::PortsList providedPorts()
  {
    return { BT::InputPort<int>("ticks") };
  }

  BT::NodeStatus onStart() override
  {
    auto ticks = getInput<int>("ticks");
    if(!ticks)
    {
      throw BT::RuntimeError("Work: ", ticks.error());
    }
    target_ = ticks.value();
    count_ = 0;
    if(target_ <= 0)
    {
      return BT::NodeStatus::SUCCESS;
    }
    count_ = 1;
    return BT::NodeStatus::RUNNING;
  }

  BT::NodeStatus onRunning() override
  {
    if(count_ >= target_)
    {
      count_ = 0;
      return BT::NodeStatus::SUCCESS;
    }
    ++count_;
    return BT::NodeStatus::RUNNING;
  }

  void onHalted() override
  {
    count_ = 0;
  }

private:
  int target_ = 0;
  int count_ = 0;
};

class Noop : public BT::SyncActionNode
{
public:
  Noop(const std::string& name, const BT::NodeConfig& config)
    : BT::SyncActionNode(name, config)
  {}

  static BT::PortsList providedPorts()
  {
    return {};
  }

  BT::NodeStatus tick() override
  {
    return BT::NodeStatus::SUCCESS;
  }
};

// Registers the three leaves in `factory`.
inline void registerAll(BT::BehaviorTreeFactory& factory)
{
  factory.registerNodeType<CheckKey>("CheckKey");
  factory.registerNodeType<Work>("Work");
  factory.registerNodeType<Noop>("Noop");
}

}  // namespace bench_leaves
