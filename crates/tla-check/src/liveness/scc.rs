//! The search for an accepting strongly connected component, and paths inside the graph.
//!
//! Architecture invariant: no recursion. Tarjan's algorithm runs with an explicit call stack, so
//! graphs of millions of nodes need no deep native stack.
//!
//! Every condition is read on edges: a state condition holds on an edge when it holds on the
//! edge's source (every node of a non-trivial component has an edge inside it, so "some node of
//! the component" is "the source of some edge of the component", and "every node" is "the source
//! of every edge"). The edge bit vector layout is [`Layout`].

/// A graph in compressed sparse rows: the edges of node `n` are `offsets[n]..offsets[n + 1]`.
#[derive(Clone, Copy)]
pub(crate) struct View<'g> {
    pub offsets: &'g [u32],
    pub targets: &'g [u32],
}

impl View<'_> {
    pub(crate) fn nodes(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }
    #[inline]
    pub(crate) fn edges(&self, n: u32) -> std::ops::Range<usize> {
        self.offsets[n as usize] as usize..self.offsets[n as usize + 1] as usize
    }
}

/// Bit positions of the conditions on an edge, for one disjunct.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// Words per edge.
    pub words: usize,
    pub ae: usize,
    pub wf: usize,
    pub sf: usize,
    pub accept: usize,
}

impl Layout {
    pub(crate) fn new(ae: usize, wf: usize, sf: usize, accept: usize) -> Layout {
        let bits = 1 + ae + wf + 2 * sf + accept;
        Layout { words: bits.div_ceil(64), ae, wf, sf, accept }
    }
    /// The edge may lie on the cycle: every `<>[]` condition holds on it.
    pub const ALLOWED: usize = 0;
    pub(crate) fn ae_bit(&self, i: usize) -> usize {
        1 + i
    }
    pub(crate) fn wf_bit(&self, k: usize) -> usize {
        1 + self.ae + k
    }
    pub(crate) fn sf_taken_bit(&self, k: usize) -> usize {
        1 + self.ae + self.wf + k
    }
    pub(crate) fn sf_enabled_bit(&self, k: usize) -> usize {
        1 + self.ae + self.wf + self.sf + k
    }
    pub(crate) fn accept_bit(&self, i: usize) -> usize {
        1 + self.ae + self.wf + 2 * self.sf + i
    }
    /// Bits that some edge of an accepting component must carry.
    pub(crate) fn required(&self) -> Vec<usize> {
        let mut v: Vec<usize> = (0..self.ae).map(|i| self.ae_bit(i)).collect();
        v.extend((0..self.wf).map(|k| self.wf_bit(k)));
        v.extend((0..self.accept).map(|i| self.accept_bit(i)));
        v
    }
}

#[inline]
pub(crate) fn has(words: &[u64], b: usize) -> bool {
    words[b / 64] >> (b % 64) & 1 == 1
}

#[inline]
pub(crate) fn set(words: &mut [u64], b: usize) {
    words[b / 64] |= 1 << (b % 64);
}

/// An accepting component: its nodes, its id in `comp`, and the strong-fairness conditions whose
/// enabled states were removed to find it (the edge filter inside it).
pub(crate) struct Accepting {
    pub nodes: Vec<u32>,
    pub comp: u32,
    pub removed: Vec<usize>,
}

pub(crate) struct Search<'g> {
    pub view: View<'g>,
    pub bits: &'g [u64],
    pub layout: &'g Layout,
    /// Component id of each node (0: not yet in a component).
    pub comp: Vec<u32>,
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    next_comp: u32,
    pub components: u64,
    required: Vec<usize>,
    acc: Vec<u64>,
}

const UNSEEN: u32 = u32::MAX;

impl<'g> Search<'g> {
    pub(crate) fn new(view: View<'g>, bits: &'g [u64], layout: &'g Layout) -> Self {
        let n = view.nodes();
        Search {
            view,
            bits,
            layout,
            comp: vec![0; n],
            index: vec![UNSEEN; n],
            low: vec![0; n],
            on_stack: vec![false; n],
            next_comp: 1,
            components: 0,
            required: layout.required(),
            acc: vec![0; layout.words],
        }
    }

    #[inline]
    pub(crate) fn edge_bits(&self, e: usize) -> &[u64] {
        let w = self.layout.words;
        &self.bits[e * w..(e + 1) * w]
    }

    /// Whether edge `e` is usable with the strong-fairness conditions in `removed` removed.
    #[inline]
    pub(crate) fn usable(&self, e: usize, removed: &[usize]) -> bool {
        let b = self.edge_bits(e);
        has(b, Layout::ALLOWED) && removed.iter().all(|&k| !has(b, self.layout.sf_enabled_bit(k)))
    }

    /// Find a component reachable from `roots` that satisfies every condition.
    pub(crate) fn find(&mut self, roots: &[u32]) -> Option<Accepting> {
        let mut work: Vec<(Vec<u32>, u32, Vec<usize>)> = Vec::new();
        if let Some(a) = self.pass(roots, 0, &[], &mut work) {
            return Some(a);
        }
        while let Some((nodes, cid, removed)) = work.pop() {
            if let Some(a) = self.pass(&nodes, cid, &removed, &mut work) {
                return Some(a);
            }
        }
        None
    }

    /// One run of Tarjan's algorithm over the nodes whose component is `within`, from `roots`.
    fn pass(
        &mut self,
        roots: &[u32],
        within: u32,
        removed: &[usize],
        work: &mut Vec<(Vec<u32>, u32, Vec<usize>)>,
    ) -> Option<Accepting> {
        let view = self.view;
        let mut counter: u32 = 0;
        let mut stack: Vec<u32> = Vec::new();
        let mut calls: Vec<(u32, usize)> = Vec::new();
        let mut visited: Vec<u32> = Vec::new();
        let mut found = None;
        'roots: for &r in roots {
            if self.index[r as usize] != UNSEEN || self.comp[r as usize] != within {
                continue;
            }
            self.open(r, &mut counter, &mut stack, &mut visited);
            calls.push((r, view.edges(r).start));
            while let Some(&mut (v, ref mut cursor)) = calls.last_mut() {
                let end = view.edges(v).end;
                if *cursor < end {
                    let e = *cursor;
                    *cursor += 1;
                    if !self.usable(e, removed) {
                        continue;
                    }
                    let w = view.targets[e];
                    if self.index[w as usize] == UNSEEN {
                        if self.comp[w as usize] != within {
                            continue;
                        }
                        self.open(w, &mut counter, &mut stack, &mut visited);
                        calls.push((w, view.edges(w).start));
                    } else if self.on_stack[w as usize] {
                        let iw = self.index[w as usize];
                        let lv = &mut self.low[v as usize];
                        *lv = (*lv).min(iw);
                    }
                } else {
                    calls.pop();
                    let lv = self.low[v as usize];
                    if let Some(&(u, _)) = calls.last() {
                        let lu = &mut self.low[u as usize];
                        *lu = (*lu).min(lv);
                    }
                    if lv == self.index[v as usize] {
                        let cid = self.next_comp;
                        self.next_comp = self.next_comp.wrapping_add(1).max(1);
                        let mut nodes = Vec::new();
                        while let Some(x) = stack.pop() {
                            self.on_stack[x as usize] = false;
                            self.comp[x as usize] = cid;
                            nodes.push(x);
                            if x == v {
                                break;
                            }
                        }
                        self.components += 1;
                        if let Some(a) = self.judge(nodes, cid, removed, work) {
                            found = Some(a);
                            break 'roots;
                        }
                    }
                }
            }
        }
        for x in visited {
            self.index[x as usize] = UNSEEN;
            self.on_stack[x as usize] = false;
        }
        found
    }

    fn open(&mut self, v: u32, counter: &mut u32, stack: &mut Vec<u32>, visited: &mut Vec<u32>) {
        self.index[v as usize] = *counter;
        self.low[v as usize] = *counter;
        *counter += 1;
        stack.push(v);
        self.on_stack[v as usize] = true;
        visited.push(v);
    }

    /// Decide a component: accept it, drop it, or queue it again without the states where a
    /// violated strong-fairness condition is enabled.
    fn judge(
        &mut self,
        nodes: Vec<u32>,
        cid: u32,
        removed: &[usize],
        work: &mut Vec<(Vec<u32>, u32, Vec<usize>)>,
    ) -> Option<Accepting> {
        let l = self.layout;
        let mut acc = std::mem::take(&mut self.acc);
        acc.iter_mut().for_each(|a| *a = 0);
        let mut nontrivial = false;
        for &u in &nodes {
            for e in self.view.edges(u) {
                if self.comp[self.view.targets[e] as usize] == cid && self.usable(e, removed) {
                    nontrivial = true;
                    for (a, b) in acc.iter_mut().zip(self.edge_bits(e)) {
                        *a |= b;
                    }
                }
            }
        }
        let ok = nontrivial && self.required.iter().all(|&b| has(&acc, b));
        self.acc = acc;
        if !ok {
            return None;
        }
        let acc = &self.acc;
        let failing: Vec<usize> =
            (0..l.sf).filter(|&k| !has(acc, l.sf_taken_bit(k)) && has(acc, l.sf_enabled_bit(k))).collect();
        if failing.is_empty() {
            return Some(Accepting { nodes, comp: cid, removed: removed.to_vec() });
        }
        let mut removed = removed.to_vec();
        removed.extend(failing);
        work.push((nodes, cid, removed));
        None
    }
}

/// Breadth-first search from `start` over edges accepted by `usable`, to the first edge accepted by
/// `goal`; returns the edges of the path (the last one satisfies `goal`). `parent` is scratch space
/// of one entry per node.
pub(crate) fn bfs_to_edge(
    view: View<'_>,
    start: u32,
    usable: impl Fn(usize) -> bool,
    goal: impl Fn(usize) -> bool,
    parent: &mut Vec<u32>,
) -> Option<Vec<usize>> {
    const NONE: u32 = u32::MAX;
    parent.clear();
    parent.resize(view.nodes(), NONE);
    let mut queue = std::collections::VecDeque::new();
    queue.push_back(start);
    let path_to = |parent: &Vec<u32>, mut x: u32, last: usize| -> Option<Vec<usize>> {
        let mut path = vec![last];
        while x != start {
            let pe = parent[x as usize];
            if pe == NONE {
                return None;
            }
            path.push(pe as usize);
            x = source(view, pe as usize)?;
        }
        path.reverse();
        Some(path)
    };
    while let Some(u) = queue.pop_front() {
        for e in view.edges(u) {
            if !usable(e) {
                continue;
            }
            if goal(e) {
                return path_to(parent, u, e);
            }
            let w = view.targets[e];
            if w == start {
                continue;
            }
            if parent[w as usize] == NONE {
                parent[w as usize] = e as u32;
                queue.push_back(w);
            }
        }
    }
    None
}

/// The source of edge `e` (binary search in the offsets).
pub(crate) fn source(view: View<'_>, e: usize) -> Option<u32> {
    let i = view.offsets.partition_point(|&o| o as usize <= e);
    i.checked_sub(1).map(|i| i as u32)
}
