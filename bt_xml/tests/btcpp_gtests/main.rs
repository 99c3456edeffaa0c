//! BehaviorTree.CPP 4.10's own gtests, ported: one module per gtest file, one `#[test]` per
//! gtest, each driving the same XML tree and asserting what the gtest asserts. See README.md
//! for what was left out and why.

mod harness;

mod gtest_blackboard;
mod gtest_decorator;
mod gtest_factory;
mod gtest_fallback;
mod gtest_if_then_else;
mod gtest_loop;
mod gtest_name_validation;
mod gtest_parallel;
mod gtest_postconditions;
mod gtest_preconditions;
mod gtest_reactive;
mod gtest_reactive_backchaining;
mod gtest_sequence;
mod gtest_skipping;
mod gtest_subtree;
mod gtest_switch;
mod gtest_try_catch;
mod gtest_updates;
mod gtest_while_do_else;
mod script_parser_test;
