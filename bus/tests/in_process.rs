//! The in-process transport: synchronous fan-out, topic filtering, arrival order, closing.

use std::time::Duration;

use bus::messages::{GoalStatus, GoalStatusArray, Header, ObjHp, PoseMsg};
use bus::{Bus, BusError, Received, Subscription, topics};

const SHORT: Duration = Duration::from_millis(50);

fn hp(t: f64, first: u16) -> ObjHp {
    ObjHp {
        header: Header::at(t),
        hp: vec![first; 16],
    }
}

fn drain(sub: &Subscription) -> Vec<Received> {
    std::iter::from_fn(|| sub.try_recv()).collect()
}

#[test]
fn handles_are_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    send_sync::<Bus>();
    send::<Subscription>();
}

#[test]
fn fan_out_reaches_two_subscriptions() -> Result<(), BusError> {
    let bus = Bus::in_process();
    assert_eq!(bus.namespace(), "");
    let a = bus.subscribe(&[topics::OBJ_HP])?;
    let b = bus.clone().subscribe(&[topics::OBJ_HP])?;
    bus.publish(topics::OBJ_HP, &hp(1.5, 600))?;
    for sub in [&a, &b] {
        // Synchronous: already queued when publish returns.
        let got = sub
            .try_recv()
            .map(|r| (r.topic.clone(), r.decode::<ObjHp>().ok()));
        assert_eq!(got, Some((topics::OBJ_HP.to_owned(), Some(hp(1.5, 600)))));
        assert_eq!(sub.try_recv(), None);
    }
    Ok(())
}

#[test]
fn topics_are_filtered() -> Result<(), BusError> {
    let bus = Bus::in_process();
    let hp_only = bus.subscribe(&[topics::OBJ_HP])?;
    let pose_only = bus.subscribe(&[topics::POSE])?;
    bus.publish(
        topics::POSE,
        &PoseMsg {
            header: Header::at(2.0),
            x: 1.0,
            y: 2.0,
            yaw: 0.5,
        },
    )?;
    bus.publish(
        topics::CAR_POS,
        &serde_json::json!({"header": {"stamp": {"sec": 0, "nanosec": 0}}, "pos": []}),
    )?;
    assert_eq!(hp_only.recv_timeout(SHORT), None);
    let pose = pose_only.try_recv();
    assert_eq!(pose.as_ref().map(|r| r.topic.as_str()), Some(topics::POSE));
    assert_eq!(pose_only.try_recv(), None);
    Ok(())
}

#[test]
fn several_topics_share_one_queue_in_arrival_order() -> Result<(), BusError> {
    let bus = Bus::in_process();
    let sub = bus.subscribe(&[topics::OBJ_HP, topics::NAV_STATUS, "/pose", topics::OBJ_HP])?;
    assert_eq!(
        sub.topics().len(),
        3,
        "duplicates and the leading slash are normalised"
    );
    let status = GoalStatusArray {
        header: Header::at(3.0),
        status_list: vec![GoalStatus {
            status: 2,
            goal_id: None,
        }],
    };
    bus.publish(topics::OBJ_HP, &hp(1.0, 1))?;
    bus.publish(topics::NAV_STATUS, &status)?;
    bus.publish("/pose", &PoseMsg::default())?;
    bus.publish(topics::OBJ_HP, &hp(2.0, 2))?;
    let order: Vec<String> = drain(&sub).into_iter().map(|r| r.topic).collect();
    assert_eq!(
        order,
        [
            topics::OBJ_HP,
            topics::NAV_STATUS,
            topics::POSE,
            topics::OBJ_HP
        ]
    );
    Ok(())
}

#[test]
fn full_queue_drops_the_oldest_and_counts() -> Result<(), BusError> {
    let bus = Bus::in_process();
    let sub = bus.subscribe(&[topics::EVENTS])?;
    let extra = 10;
    for i in 0..bus::QUEUE_CAPACITY + extra {
        bus.publish_raw(topics::EVENTS, i.to_string().as_bytes())?;
    }
    assert_eq!(sub.dropped(), extra as u64);
    assert_eq!(sub.pending(), bus::QUEUE_CAPACITY);
    assert_eq!(
        sub.try_recv().map(|r| r.payload),
        Some(extra.to_string().into_bytes())
    );
    Ok(())
}

#[test]
fn wait_for_subscriber_sees_any_subscription() -> Result<(), BusError> {
    let bus = Bus::in_process();
    assert!(!bus.wait_for_subscriber(topics::DECISION, SHORT));
    let other = bus.clone();
    let waiter = std::thread::spawn(move || {
        other.wait_for_subscriber(topics::DECISION, Duration::from_secs(5))
    });
    std::thread::sleep(SHORT);
    let sub = bus.subscribe(&[topics::DECISION])?;
    assert_eq!(waiter.join().ok(), Some(true));
    drop(sub);
    assert!(
        !bus.wait_for_subscriber(topics::DECISION, SHORT),
        "a dropped subscription unsubscribes"
    );
    Ok(())
}

#[test]
fn garbage_decodes_to_an_error_naming_the_topic() -> Result<(), BusError> {
    let bus = Bus::in_process();
    let sub = bus.subscribe(&[topics::OBJ_HP])?;
    bus.publish_raw(topics::OBJ_HP, b"\x00\xffnot json")?;
    let err = sub.try_recv().map(|r| r.decode::<ObjHp>());
    let err = err.and_then(Result::err);
    assert_eq!(err.as_ref().map(|e| e.topic.as_str()), Some(topics::OBJ_HP));
    assert!(err.is_some_and(|e| e.to_string().starts_with("topic `obj_hp`: field `.`: ")));
    Ok(())
}

#[test]
fn decode_errors_name_the_field_path() {
    let payload = br#"{"header":{"stamp":{"sec":1,"nanosec":0}},"hp":[600,600,600,"full"]}"#;
    let err = bus::decode::<ObjHp>(topics::OBJ_HP, payload).err();
    assert_eq!(err.as_ref().map(|e| e.field.as_str()), Some("hp[3]"));
    assert_eq!(
        err.map(|e| e.to_string()),
        Some(
            "topic `obj_hp`: field `hp[3]`: invalid type: string \"full\", expected u16".to_owned()
        )
    );
    let payload = br#"{"header":{"stamp":{"sec":1}},"hp":[]}"#;
    let err = bus::decode::<ObjHp>(topics::OBJ_HP, payload).err();
    assert_eq!(err.as_ref().map(|e| e.field.as_str()), Some("header.stamp"));
    assert_eq!(
        err.map(|e| e.message),
        Some("missing field `nanosec`".to_owned())
    );
    let err =
        bus::decode::<GoalStatusArray>(topics::NAV_STATUS, br#"{"status_list":[{"status":-1}]}"#)
            .err();
    assert_eq!(
        err.map(|e| e.field),
        Some("status_list[0].status".to_owned())
    );
}

#[test]
fn bad_names_are_rejected() {
    let bus = Bus::in_process();
    assert!(matches!(
        bus.publish("obj_hp/*", &1),
        Err(BusError::Config(_))
    ));
    assert!(matches!(bus.subscribe(&["a//b"]), Err(BusError::Config(_))));
    assert!(matches!(
        Bus::in_process_with_namespace("red/"),
        Err(BusError::Config(_))
    ));
    assert!(matches!(
        Bus::in_process_with_namespace("r$d"),
        Err(BusError::Config(_))
    ));
    assert_eq!(
        Bus::in_process_with_namespace("blue").map(|b| b.namespace().to_owned()),
        Ok("blue".to_owned())
    );
}

#[test]
fn close_stops_publishing_and_wakes_receivers() -> Result<(), BusError> {
    let bus = Bus::in_process();
    let sub = bus.subscribe(&[topics::OBJ_HP])?;
    // A receiver already blocked when the bus closes must wake (not wait out its timeout).
    let idle = bus.subscribe(&[topics::DECISION])?;
    let (woken, wake) = std::sync::mpsc::channel();
    let blocked = std::thread::spawn(move || {
        woken
            .send(idle.recv_timeout(Duration::from_secs(600)).is_none())
            .ok();
    });
    bus.publish(topics::OBJ_HP, &hp(0.0, 1))?;
    bus.clone().close();
    assert_eq!(
        bus.publish(topics::OBJ_HP, &hp(0.0, 1)),
        Err(BusError::Closed)
    );
    assert!(matches!(
        bus.subscribe(&[topics::OBJ_HP]),
        Err(BusError::Closed)
    ));
    assert!(
        sub.recv_timeout(SHORT).is_some(),
        "queued messages are still drained"
    );
    assert_eq!(sub.recv_timeout(Duration::from_secs(600)), None);
    // 60 s is no timing claim, only a bound on a hang: a missed wake-up would take 600 s.
    assert_eq!(wake.recv_timeout(Duration::from_secs(60)), Ok(true));
    blocked.join().ok();
    Ok(())
}
