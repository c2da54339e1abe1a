//! The cluster as the system graph's state machine (`workload::graph`): its steps from the
//! start, a pre-vote campaign through to a candidate, and messages that stay in the set.

use serde_json::{Map, Value};
use task_etcd::workload::graph::GraphState;
use task_probe::Machine;

fn labels(s: &GraphState) -> Vec<String> {
    s.successors().iter().map(|(a, args, _)| format!("{a}{}", Value::Object(args.clone()))).collect()
}

fn take(s: &GraphState, action: &str, i: u64, j: Option<u64>) -> GraphState {
    let mut want = Map::new();
    want.insert("i".into(), i.into());
    if let Some(j) = j {
        want.insert("j".into(), j.into());
    }
    s.successors().into_iter().find(|(a, args, _)| a == action && *args == want).map(|(_, _, n)| n).unwrap_or_else(|| panic!("{action}({want:?}) among {:?}", labels(s)))
}

fn field(s: &GraphState, f: &str, node: u64) -> Value {
    s.observe()[f][node.to_string()].clone()
}

#[test]
fn from_the_start_a_timer_fires_or_a_node_restarts() {
    let s = GraphState::initial();
    assert_eq!(
        labels(&s),
        ["Timeout{\"i\":1}", "Restart{\"i\":1}", "Timeout{\"i\":2}", "Restart{\"i\":2}", "Timeout{\"i\":3}", "Restart{\"i\":3}"]
    );
    assert_eq!(s.sent(), 0);
}

#[test]
fn a_pre_vote_campaign_makes_a_candidate_and_messages_stay_sent() {
    let s = take(&GraphState::initial(), "Timeout", 1, None);
    assert_eq!(field(&s, "state", 1), "PreCandidate");
    assert_eq!(field(&s, "currentTerm", 1), 0);
    assert_eq!(s.sent(), 2);
    // Node 2 grants the pre-vote: nothing it shows changes, an answer is sent, the request
    // stays in the set (it may be delivered again).
    let s = take(&s, "HandlePreVoteRequest", 2, Some(1));
    assert_eq!(s.observe(), take(&GraphState::initial(), "Timeout", 1, None).observe());
    assert_eq!(s.sent(), 3);
    assert!(labels(&s).contains(&"HandlePreVoteRequest{\"i\":2,\"j\":1}".to_string()));
    // One grant is a quorum with its own: a candidate at term 1, voting for itself.
    let c = take(&s, "HandlePreVoteResponse", 1, Some(2));
    assert_eq!((field(&c, "state", 1), field(&c, "currentTerm", 1), field(&c, "votedFor", 1)), ("Candidate".into(), 1.into(), 1.into()));
    assert_eq!(c.max_term(), 1);
    // A restart in the middle of the campaign: a follower again, its messages still sent.
    let r = take(&s, "Restart", 1, None);
    assert_eq!(r.observe(), GraphState::initial().observe());
    assert_eq!(r.sent(), 3);
    assert!(labels(&r).contains(&"HandlePreVoteResponse{\"i\":1,\"j\":2}".to_string()));
}
