//! The zookeeper traces: they regenerate identically, the files under `traces/zookeeper` are
//! those runs, every pinned action occurs, the situations the task lists happen (crashes in the
//! middle of an election, a leader's crash and a new round, competing candidates, decisions from
//! settled peers' notifications, final waits ended by a better vote), and every line keeps the
//! election's rules, checked here apart from the code that made the lines. The bug traces have
//! a peer give up its own vote for an older history; the correct system never does.

use std::collections::BTreeMap;

use serde_json::Value;
use task_probe::testing::{assert_actions_pinned, assert_check_constant, assert_traces_match_files, trace};
use task_zookeeper::fast_leader_election::Bug;
use task_zookeeper::workload::{Scenario, bug_seeds, constants, run_system, traces};

const PINNED: [&str; 9] = ["Start", "Crash", "ReceiveNotification", "DecideBySettled", "SettledReceive", "NotificationTimeout", "FinalizeWait", "StopFollowing", "StopLeading"];

#[test]
fn pinned_names_and_constants_match_task_toml() {
    let toml = include_str!("../task.toml");
    assert_actions_pinned(toml, &PINNED);
    let k = constants();
    assert_check_constant(toml, "NumServers", k.servers);
    assert_check_constant(toml, "MaxRound", k.max_round);
    assert_check_constant(toml, "MaxCrashes", k.max_crashes);
}

#[test]
fn traces_regenerate_identically_and_match_the_files() {
    assert_traces_match_files(traces, &["zookeeper", "zookeeper-bug"]);
    assert!(traces().iter().filter(|t| t.dir == "zookeeper").count() >= 20);
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("a number: {v}"))
}

fn ids(state: &Value) -> Vec<String> {
    state["state"].as_object().expect("state: an object").keys().cloned().collect()
}

/// The vote order, written here apart from the code: (epoch, zxid, id), compared in that order.
fn rank(leader: u64, zxid: u64, epoch: u64) -> (u64, u64, u64) {
    (epoch, zxid, leader)
}

fn vote_rank(v: &Value) -> (u64, u64, u64) {
    rank(u(&v["leader"]), u(&v["zxid"]), u(&v["epoch"]))
}

/// A peer's own vote: its id, last zxid and epoch.
fn own_rank(s: &Value, i: &str) -> (u64, u64, u64) {
    rank(i.parse().unwrap(), u(&s["lastZxid"][i]), u(&s["currentEpoch"][i]))
}

/// The senders whose vote (in recvset or outofelection) is for `leader`.
fn supporters(s: &Value, i: &str, leader: u64) -> usize {
    let mut who = std::collections::BTreeSet::new();
    for set in ["recvset", "outofelection"] {
        for (from, v) in s[set][i].as_object().unwrap() {
            if u(&v["leader"]) == leader {
                who.insert(from.clone());
            }
        }
    }
    who.len()
}

/// The election's rules on one observed state.
fn check_state(name: &str, s: &Value) {
    let ids = ids(s);
    let n = ids.len();
    for i in &ids {
        let st = s["state"][i].as_str().unwrap();
        let up = s["up"][i] == true;
        let vote = &s["vote"][i];
        if !up {
            assert_eq!(st, "LOOKING", "{name}: peer {i} is down and {st}");
            assert_eq!(u(&s["logicalclock"][i]), 0, "{name}: peer {i} is down with a round");
            for j in &ids {
                assert!(s["messages"][i][j].as_array().unwrap().is_empty() && s["messages"][j][i].as_array().unwrap().is_empty(), "{name}: a connection of peer {i}, down, holds a notification");
            }
            continue;
        }
        assert!(u(&s["logicalclock"][i]) >= 1, "{name}: peer {i} is up in round 0");
        match st {
            // A LOOKING peer never proposes a vote older than its own.
            "LOOKING" => assert!(vote_rank(vote) >= own_rank(s, i), "{name}: peer {i} proposes {vote}, older than its own"),
            "LEADING" => {
                assert_eq!(vote["leader"].to_string(), *i, "{name}: leader {i} votes for another");
                assert!(2 * supporters(s, i, i.parse().unwrap()) > n, "{name}: leader {i} without a quorum of votes");
            }
            "FOLLOWING" => {
                assert_ne!(vote["leader"].to_string(), *i, "{name}: follower {i} follows itself");
                assert!(2 * supporters(s, i, u(&vote["leader"])) > n, "{name}: follower {i} without a quorum of votes for its leader");
            }
            other => panic!("{name}: state {other}"),
        }
        assert!(s["finalizing"][i] == false || st == "LOOKING", "{name}: peer {i} settled in the final wait");
        for j in &ids {
            assert!(s["messages"][j][i].as_array().unwrap().len() <= 1, "{name}: two notifications on a connection");
        }
    }
    // Two leaders that a quorum each follows are one.
    let backed: Vec<&String> = ids
        .iter()
        .filter(|i| s["up"][*i] == true && s["state"][*i] == "LEADING")
        .filter(|i| {
            let f = ids.iter().filter(|j| s["up"][*j] == true && s["state"][*j] == "FOLLOWING" && u(&s["vote"][*j]["leader"]).to_string() == **i).count();
            2 * (f + 1) > n
        })
        .collect();
    assert!(backed.len() <= 1, "{name}: two leaders each with a quorum of followers");
}

#[test]
fn every_action_occurs_and_every_line_keeps_the_elections_rules() {
    let mut actions: BTreeMap<String, usize> = BTreeMap::new();
    let (mut crashes_looking, mut leader_crashes, mut competing, mut higher_rounds, mut wait_broken, mut by_settled, mut two_leaders_one_round) = (0, 0, 0, 0, 0, 0, 0);
    let mut rounds = 0;
    for t in traces().iter().filter(|t| t.dir == "zookeeper") {
        let tr = trace(&t.name, "zookeeper", &t.text);
        check_state(&t.name, &tr.init);
        let mut prev = tr.init.clone();
        for s in &tr.steps {
            let a = s["action"].as_str().unwrap().to_string();
            let st = &s["state"];
            check_state(&t.name, st);
            let i = s["args"]["i"].to_string();
            match a.as_str() {
                "Crash" if prev["state"][&i] == "LOOKING" && prev["finalizing"][&i] == false => crashes_looking += 1,
                "Crash" if prev["state"][&i] == "LEADING" => leader_crashes += 1,
                "ReceiveNotification" => {
                    let j = s["args"]["j"].to_string();
                    let n = &prev["messages"][&j][&i][0];
                    if u(&n["round"]) > u(&prev["logicalclock"][&i]) {
                        higher_rounds += 1;
                    }
                    if prev["finalizing"][&i] == true && st["finalizing"][&i] == false {
                        wait_broken += 1;
                    }
                    // Two LOOKING peers that each propose themselves in the same round compete.
                    if n["state"] == "LOOKING" && s["args"]["j"] != s["args"]["i"] && u(&n["leader"]) == u(&s["args"]["j"]) && prev["vote"][&i]["leader"] == s["args"]["i"] && n["round"] == prev["logicalclock"][&i] {
                        competing += 1;
                    }
                }
                "DecideBySettled" => by_settled += 1,
                _ => {}
            }
            let leaders: Vec<u64> = ids(st).iter().filter(|k| st["up"][*k] == true && st["state"][*k] == "LEADING").map(|k| u(&st["logicalclock"][k])).collect();
            if leaders.len() > 1 && leaders.windows(2).any(|w| w[0] == w[1]) {
                two_leaders_one_round += 1;
            }
            rounds = rounds.max(ids(st).iter().map(|k| u(&st["logicalclock"][k])).max().unwrap());
            *actions.entry(a).or_default() += 1;
            prev = st.clone();
        }
    }
    for a in PINNED {
        assert!(actions.get(a).copied().unwrap_or(0) > 0, "{a} never occurs: {actions:?}");
    }
    eprintln!(
        "actions {actions:?}; crashes of a looking peer {crashes_looking}, of a leader {leader_crashes}; competing proposals {competing}; higher rounds taken {higher_rounds}; final waits ended by a better vote {wait_broken}; decisions from settled peers {by_settled}; states with two leaders of one round {two_leaders_one_round}; highest round {rounds}"
    );
    assert!(crashes_looking >= 1 && leader_crashes >= 1 && competing >= 1 && higher_rounds >= 1 && wait_broken >= 1 && by_settled >= 1);
    assert!(rounds >= 2);
}

#[test]
fn the_bug_switch_gives_up_a_newer_vote_and_the_correct_system_never_does() {
    let seeds = bug_seeds(2);
    assert_eq!(seeds.len(), 2);
    let (mut seen, mut older_leader) = (0, false);
    for t in traces().iter().filter(|t| t.dir == "zookeeper-bug") {
        let tr = trace(&t.name, "zookeeper", &t.text);
        assert_eq!(tr.header["bug"], "epoch-blind-tie-break", "{}", t.name);
        let older = tr.steps.iter().any(|s| {
            let st = &s["state"];
            ids(st).iter().any(|i| st["up"][i] == true && st["state"][i] == "LOOKING" && vote_rank(&st["vote"][i]) < own_rank(st, i))
        });
        assert!(older, "{}: no peer proposes an older vote", t.name);
        // A leader whose history is older than a follower's own: the follower's epoch-2
        // transactions would be lost to Zab's synchronisation with that leader.
        older_leader |= tr.steps.iter().any(|s| {
            let st = &s["state"];
            ids(st).iter().any(|f| {
                st["up"][f] == true && st["state"][f] == "FOLLOWING" && {
                    let l = st["vote"][f]["leader"].to_string();
                    st["up"][&l] == true && st["state"][&l] == "LEADING" && own_rank(st, &l) < own_rank(st, f)
                }
            })
        });
        seen += 1;
    }
    assert_eq!(seen, 2);
    assert!(older_leader, "no bug trace elects a leader older than a follower");
    for sc in Scenario::ALL {
        for seed in 1..=40 {
            assert!(!run_system(sc, seed, Bug::None).gave_up_own_vote, "{} {seed}", sc.name());
        }
    }
}
