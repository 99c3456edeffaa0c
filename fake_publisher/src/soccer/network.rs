//! The team network: State messages arrive at the teammates after a seeded delay, or are
//! lost (a loss rate, and robots whose messages are all lost).

use super::scenario::Side;
use crate::rng::SplitMix64;
use soccer_profile::frame::TeammateMessage;

/// A message on its way.
#[derive(Debug, Clone, PartialEq)]
struct InFlight {
    arrives: f64,
    side: Side,
    message: TeammateMessage,
}

/// Messages in flight, delivered in order of arrival (then of sending).
#[derive(Debug, Clone, Default)]
pub struct Network {
    in_flight: Vec<InFlight>,
    /// Messages sent (home, away).
    pub sent: [u64; 2],
    /// Messages lost (home, away).
    pub lost: [u64; 2],
}

impl Network {
    /// Sends `message` from `side`: lost with `loss_rate` (or always when `silent`), else
    /// delivered after a delay in `[delay_min, delay_max]`.
    #[allow(clippy::too_many_arguments)] // the network's parameters, each one number
    pub fn send(
        &mut self,
        side: Side,
        message: TeammateMessage,
        now: f64,
        delay_min: f64,
        delay_max: f64,
        loss_rate: f64,
        silent: bool,
        rng: &mut SplitMix64,
    ) {
        let i = usize::from(side == Side::Away);
        self.sent[i] += 1;
        if silent || rng.chance(loss_rate) {
            self.lost[i] += 1;
            return;
        }
        let delay = delay_min + (delay_max - delay_min) * rng.unit();
        self.in_flight.push(InFlight {
            arrives: now + delay,
            side,
            message,
        });
    }

    /// Takes every message that has arrived by `now`: `(side, message)` in arrival order.
    pub fn deliver(&mut self, now: f64, out: &mut Vec<(Side, TeammateMessage)>) {
        out.clear();
        let mut arrived: Vec<InFlight> = Vec::new();
        self.in_flight.retain(|m| {
            if m.arrives <= now {
                arrived.push(m.clone());
                false
            } else {
                true
            }
        });
        arrived.sort_by(|a, b| a.arrives.total_cmp(&b.arrives));
        out.extend(arrived.into_iter().map(|m| (m.side, m.message)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(player: u8) -> TeammateMessage {
        TeammateMessage {
            player,
            pose: None,
            head_yaw: 0.0,
            ball: None,
            ball_age: 0.0,
            striker: None,
        }
    }

    #[test]
    fn messages_arrive_after_their_delay_or_are_lost() {
        let mut net = Network::default();
        let mut rng = SplitMix64::new(1);
        net.send(Side::Home, message(2), 0.0, 0.1, 0.1, 0.0, false, &mut rng);
        net.send(Side::Home, message(3), 0.0, 0.1, 0.1, 0.0, true, &mut rng);
        let mut out = Vec::new();
        net.deliver(0.05, &mut out);
        assert!(out.is_empty());
        net.deliver(0.1, &mut out);
        assert_eq!(out.iter().map(|(_, m)| m.player).collect::<Vec<_>>(), [2]);
        assert_eq!(net.lost, [1, 0]);
    }
}
