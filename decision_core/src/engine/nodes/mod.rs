//! The standard node library (BehaviorTree.CPP 4.10's names and semantics) and the
//! `weighted_selection` control of the RoboMaster profile: one module per kind, each
//! documenting its result for every child outcome.
//!
//! Rules the engine core applies to every kind (see [`tree`](super::tree)):
//!
//! * Every tick of a node appends one [`TraceEntry`](super::TraceEntry) when it returns
//!   (children before parents), including a node decided by a pre-condition.
//! * Between ticks a node keeps BT.CPP's status: running, idle, or its completed result until
//!   its parent resets it; a SKIPPED result leaves the status as it was.
//! * Halting a running node halts its running descendants (each abandoned action's `halt`
//!   runs exactly once) and leaves them idle.

pub mod always;
pub mod async_fallback;
pub mod async_sequence;
pub mod delay;
pub mod entry_updated;
pub mod fallback;
pub mod force;
pub mod forward;
pub mod if_then_else;
pub mod inverter;
pub mod keep_running_until_failure;
pub mod loop_queue;
pub mod parallel;
pub mod parallel_all;
pub mod precondition;
pub mod reactive_fallback;
pub mod reactive_sequence;
pub mod repeat;
pub mod retry_until_successful;
pub mod round;
pub mod run_once;
pub mod script;
pub mod script_condition;
pub mod sequence;
pub mod sequence_with_memory;
pub mod set_blackboard;
pub mod sleep;
pub mod subtree;
pub mod switch;
pub mod timeout;
pub mod try_catch;
pub mod unset_blackboard;
pub mod weighted_selection;
pub mod while_do_else;

use super::Registry;

/// Registers every standard node kind (BehaviorTree.CPP 4.10's default library), and refuses
/// with a hint the old names a default BT.CPP 4 build does not register. The RoboMaster
/// profile's `weighted_selection` registers with that profile
/// ([`weighted_selection::register`]).
pub fn register_standard<C: 'static>(registry: &mut Registry<C>) {
    always::register(registry);
    async_fallback::register(registry);
    async_sequence::register(registry);
    delay::register(registry);
    entry_updated::register(registry);
    fallback::register(registry);
    if_then_else::register(registry);
    parallel::register(registry);
    parallel_all::register(registry);
    force::register(registry);
    inverter::register(registry);
    keep_running_until_failure::register(registry);
    loop_queue::register(registry);
    precondition::register(registry);
    reactive_fallback::register(registry);
    reactive_sequence::register(registry);
    repeat::register(registry);
    retry_until_successful::register(registry);
    run_once::register(registry);
    script::register(registry);
    script_condition::register(registry);
    sequence::register(registry);
    sequence_with_memory::register(registry);
    switch::register(registry);
    set_blackboard::register(registry);
    sleep::register(registry);
    subtree::register(registry);
    timeout::register(registry);
    try_catch::register(registry);
    unset_blackboard::register(registry);
    while_do_else::register(registry);
    registry.retire(
        "SequenceStar",
        "BT.CPP 3's name, not registered by BT.CPP 4: did you mean `SequenceWithMemory`?",
    );
    registry.retire(
        "ManualSelector",
        "BT.CPP 3's interactive selector, not registered by BT.CPP 4: \
         did you mean `Switch2` ... `Switch6` or `Fallback`?",
    );
}

#[cfg(test)]
mod tests {
    use crate::engine::test_support::registry;

    /// The kinds a default BT.CPP 4.10 factory registers (`BehaviorTreeFactory`'s
    /// constructor).
    const BTCPP_DEFAULTS: [&str; 42] = [
        "Fallback",
        "AsyncFallback",
        "Sequence",
        "AsyncSequence",
        "SequenceWithMemory",
        "Parallel",
        "ParallelAll",
        "ReactiveSequence",
        "ReactiveFallback",
        "IfThenElse",
        "WhileDoElse",
        "TryCatch",
        "Inverter",
        "RetryUntilSuccessful",
        "KeepRunningUntilFailure",
        "Repeat",
        "Timeout",
        "Delay",
        "RunOnce",
        "ForceSuccess",
        "ForceFailure",
        "AlwaysSuccess",
        "AlwaysFailure",
        "Script",
        "ScriptCondition",
        "SetBlackboard",
        "Sleep",
        "UnsetBlackboard",
        "SubTree",
        "Precondition",
        "Switch2",
        "Switch3",
        "Switch4",
        "Switch5",
        "Switch6",
        "LoopInt",
        "LoopBool",
        "LoopDouble",
        "LoopString",
        "WasEntryUpdated",
        "SkipUnlessUpdated",
        "WaitValueUpdate",
    ];

    #[test]
    fn every_btcpp_default_kind_is_registered_and_old_names_are_not() {
        let r = registry();
        for id in BTCPP_DEFAULTS {
            assert!(r.has(id), "`{id}` is not registered");
        }
        for old in ["SequenceStar", "ManualSelector"] {
            assert!(!r.has(old) && r.retired_hint(old).is_some(), "{old}");
        }
    }
}
