//! Ready formations: which kick-off pose a player takes (the `ready` branch).

use crate::frame::Team;
use crate::params::Parameters;
use crate::world::ActivePlayers;
use geometry::{Field, Point2, Pose2};

/// A normalised `[u, v]` as a field pose facing the centre spot (yaw 0 at the centre).
pub fn normalised_pose(uv: [f64; 2], params: &Parameters) -> Pose2<Field> {
    let p = Point2::<Field>::new(
        uv[0] * params.field.half_length(),
        uv[1] * params.field.half_width(),
    );
    let to_center = Point2::<Field>::ORIGIN - p;
    Pose2 {
        position: p,
        yaw: to_center.angle(),
    }
}

/// The kick-off pose of `player`, or `None` when no slot is left for it.
///
/// Active players without the goalkeeper are the field players. On an own kick-off the
/// highest-numbered field player takes the striker position and the others the aggressive
/// positions from the highest number down; otherwise every field player takes the defensive
/// positions in that order.
pub fn kickoff_pose(
    player: u8,
    active: ActivePlayers,
    kicking_team: Option<Team>,
    params: &Parameters,
) -> Option<Pose2<Field>> {
    let kickoff = &params.behavior_node.kickoff;
    let keeper = params.behavior_node.goalkeeper.player_number;
    if player == keeper {
        return Some(normalised_pose(kickoff.goalkeeper_position, params));
    }
    let mut field_players = active;
    field_players.remove(keeper);
    field_players.insert(player);
    let rank = field_players.descending().position(|p| p == player)?;
    let slot = if kicking_team == Some(Team::Own) {
        match rank {
            0 => Some(kickoff.striker_position),
            r => kickoff.aggressive_positions.get(r - 1).copied(),
        }
    } else {
        kickoff.defensive_positions.get(rank).copied()
    };
    slot.map(|uv| normalised_pose(uv, params))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn active(players: &[u8]) -> ActivePlayers {
        let mut a = ActivePlayers::default();
        for p in players {
            a.insert(*p);
        }
        a
    }

    fn xy(p: Option<Pose2<Field>>) -> Option<(f64, f64)> {
        p.map(|p| {
            (
                (p.position.x * 1000.0).round() / 1000.0,
                (p.position.y * 1000.0).round() / 1000.0,
            )
        })
    }

    #[test]
    fn own_kickoff_gives_the_highest_field_player_the_striker_position() {
        let params = Parameters::default();
        let all = active(&[1, 2, 3, 4, 5]);
        let own = Some(Team::Own);
        assert_eq!(xy(kickoff_pose(1, all, own, &params)), Some((-4.185, 0.0)));
        assert_eq!(xy(kickoff_pose(5, all, own, &params)), Some((-0.585, 0.0)));
        assert_eq!(xy(kickoff_pose(4, all, own, &params)), Some((-1.71, 1.5)));
        assert_eq!(xy(kickoff_pose(3, all, own, &params)), Some((-1.71, -1.5)));
        assert_eq!(xy(kickoff_pose(2, all, own, &params)), Some((-3.015, 0.0)));
    }

    #[test]
    fn opponent_or_unknown_kickoff_fills_the_defensive_positions() {
        let params = Parameters::default();
        let all = active(&[1, 2, 3, 4, 5]);
        for team in [Some(Team::Opponent), None] {
            assert_eq!(xy(kickoff_pose(5, all, team, &params)), Some((-1.8, 0.0)));
            assert_eq!(xy(kickoff_pose(4, all, team, &params)), Some((-2.79, 1.59)));
            assert_eq!(xy(kickoff_pose(2, all, team, &params)), Some((-3.195, 0.0)));
        }
    }

    #[test]
    fn penalized_players_leave_their_slot_and_a_player_without_one_stands() {
        let params = Parameters::default();
        // 5 penalized: 4 is now the highest field player.
        let four = active(&[1, 2, 3, 4]);
        assert_eq!(
            xy(kickoff_pose(4, four, Some(Team::Own), &params)),
            Some((-0.585, 0.0))
        );
        // Six field players, four defensive slots: the lowest numbers get none.
        let many = active(&[1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(kickoff_pose(3, many, None, &params), None);
        assert_eq!(kickoff_pose(2, many, None, &params), None);
        assert!(kickoff_pose(4, many, None, &params).is_some());
    }

    #[test]
    fn the_goalkeeper_number_decides_who_keeps_goal_and_poses_face_the_centre() {
        let mut params = Parameters::default();
        params.behavior_node.goalkeeper.player_number = 3;
        let all = active(&[1, 2, 3, 4, 5]);
        assert_eq!(xy(kickoff_pose(3, all, None, &params)), Some((-4.185, 0.0)));
        assert_eq!(xy(kickoff_pose(1, all, None, &params)), Some((-3.195, 0.0)));
        let p = kickoff_pose(4, all, Some(Team::Own), &params).expect("slot");
        let expected = (0.0 - p.position.y).atan2(0.0 - p.position.x);
        assert!((p.yaw - expected).abs() < 1e-12);
        let centre = normalised_pose([0.0, 0.0], &params);
        assert_eq!(centre.yaw, 0.0);
    }
}
