//! The RoboCup humanoid soccer behaviour (HULKs-style roles) on the decision engine.
//!
//! * [`params`]: the parameter files (`behavior_node`, `search_suggestor`, `field`), merged
//!   base / location / robot and validated with file, line and column.
//! * [`booster`]: the Booster `game.xml` vocabulary (BehaviorTree.CPP custom nodes and the
//!   brain's blackboard keys) on the same world and motions.
pub mod bench_support;
pub mod booster;
pub mod brain;
pub mod context;
pub mod decider;
pub mod formation;
pub mod frame;
pub mod leaves;
pub mod messages;
pub mod motion;
pub mod params;
pub mod path_planning;
pub mod search;
pub mod tree;
pub mod tree_loop;
pub mod velocity;
pub mod voronoi;
pub mod world;
