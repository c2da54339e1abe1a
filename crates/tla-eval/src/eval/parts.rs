//! The parts of [`ConstEval`]'s state, one struct a job.

use super::*;

/// The program: the modules' definitions and scopes, the variables, the `.cfg`'s overrides and
/// the string table. Built once by [`ConstEval::with_config`] and the `.cfg`'s settings;
/// evaluation only reads it. It is `Send + Sync`: the workers of a parallel run share one
/// (see [`SharedProgram`]) instead of each building its own.
#[derive(Clone)]
pub(super) struct Program<'a> {
    pub(super) globals: HashMap<&'a str, Global<'a>>,
    pub(super) interner: Interner,
    /// Variable names to slots (empty at constant level).
    pub(super) vars: HashMap<&'a str, usize>,
    pub(super) var_names: Vec<&'a str>,
    /// Each module's scope (own definitions, extended and instantiated ones), by module name.
    pub(super) scopes: HashMap<&'a str, Arc<Scope<'a>>>,
    /// Each module's variables, and its variables and constants (declared or extended), by
    /// module name.
    pub(super) module_vars: HashMap<&'a str, (Arc<FxHashSet<&'a str>>, Arc<FxHashSet<&'a str>>)>,
    /// `.cfg` overrides of a module's definitions (`Op = [M] v`, `Op <- [M] Def`): they win
    /// over the definitions of every module, instances included.
    pub(super) overrides: HashMap<&'a str, Global<'a>>,
    /// The analysis's level of each expression (`level`); `None` for an evaluator made
    /// without one (constant-level tests), which then assumes any argument may be an action.
    pub(super) levels: Option<&'a tla_sema::Levels>,
    /// What each name denotes, from the analysis (see `ConstEval::resolve_name`); `None` for
    /// an evaluator made without one, which then finds locals by their text.
    pub(super) names: Option<&'a tla_sema::Names>,
    /// Constant-level zero-argument definitions whose value is kept once computed, by the
    /// definition's address.
    pub(super) cacheable: FxHashSet<usize>,
}

/// Where evaluation stands: the current and next state, whether it reads primed or Init
/// variables, the instances entered and ENABLED's cut, and the nesting depth.
pub(super) struct Frame<'a> {
    pub(super) depth: Cell<u32>,
    pub(super) max_depth: u32,
    /// The current state (empty at constant level).
    pub(super) cur: RefCell<State>,
    /// The next state under construction (`None`: not assigned yet).
    pub(super) next: RefCell<Vec<Option<Value>>>,
    /// Evaluating under a prime: variables read the next state.
    pub(super) primed: Cell<bool>,
    /// Enumerating Init: unprimed variables are assigned and read from the next state.
    pub(super) init_mode: Cell<bool>,
    /// Inside ENABLED: the instance frames below this depth were entered before ENABLED, so
    /// a primed variable of theirs is a variable of the instantiated module in its own right
    /// (not its substitute), as in TLC (see `action::cut_var`). 0 outside ENABLED.
    pub(super) cutoff: Cell<usize>,
    /// Inside ENABLED: next values of such variables that the root module does not declare.
    pub(super) free: RefCell<Vec<(&'a str, Value)>>,
    /// Instances being evaluated (innermost last).
    pub(super) ctx: RefCell<Vec<InstFrame<'a>>>,
    /// Reads of the next state so far (a LET value that read none may be kept).
    pub(super) next_reads: Cell<u64>,
    /// Enumerating states (Init or successors), outside ENABLED: the conditions shortcut of
    /// `action::all_assigned` applies.
    pub(super) enumerating: Cell<bool>,
}

/// What evaluation keeps, keyed by the address of a node or definition: constant values and
/// facts (constant or not, action level or not), names resolved, function results.
pub(super) struct Caches<'a> {
    pub(super) cache: RefCell<HashMap<*const OpDef, Value>>,
    /// Constant subexpressions by address, with their values once computed (see `konst`).
    pub(super) konst: RefCell<HashMap<*const Expr, konst::Constness<'a>>>,
    /// Whether each definition's body is constant (by the definition's address).
    pub(super) konst_defs: RefCell<HashMap<usize, bool>>,
    /// Applications of constant function definitions (`f[x \in S] == e` whose body reads no
    /// state), by definition and fingerprint of the argument: the argument and the result.
    /// At most `FUN_MEMO_LIMIT` arguments are kept (then results are computed each time).
    pub(super) fun_memo: RefCell<FunMemo>,
    /// Whether each argument of an action call is action-level (see `action::action_arg`), by
    /// the argument's address: scoping is lexical, so the answer is the same at every call.
    pub(super) action_level: RefCell<HashMap<usize, bool>>,
    /// Whether a definition may prime a parameter (see `action::primes_param`), by the
    /// address of its body and the parameter's position.
    pub(super) primed_params: RefCell<HashMap<(usize, usize), bool>>,
    /// In front of `primed_params` for calls evaluated for their value: by the address of a
    /// body, a bit per parameter (the first 64) that the body may prime (see `value_arg`).
    pub(super) primed_mask_fast: PtrCache<u64>,
    /// Whether an action may branch at a node (see `action::may_branch`), by address.
    pub(super) branching: RefCell<HashMap<usize, bool>>,
    /// Whether TLC holds a module's function definition as a table (see
    /// `action::fun_tabled`), by the definition's address.
    pub(super) tabled: RefCell<HashMap<usize, bool>>,
    /// What a name applied at a node means outside instances, when no local binds it.
    pub(super) resolved: RefCell<HashMap<*const OpName, Resolved<'a>>>,
    /// The last answers of `resolved`, looked up first (see `ptrcache`).
    pub(super) resolved_fast: PtrCache<Resolved<'a>>,
    /// What names mean inside instances (see `instance`).
    pub(super) instances: instance::InstanceCaches<'a>,
    /// The values of the constants `resolved` names (`Resolved::Constant`).
    pub(super) constants: RefCell<Vec<Value>>,
    /// Nodes `konst` found not constant, looked up first (see `ptrcache`).
    pub(super) varies_fast: PtrCache<()>,
    pub(super) pure_defs: RefCell<HashMap<usize, bool>>,
    /// Values of compiled zero-argument definitions in one state (`TypeOK` checked alone and
    /// again inside `Inv`, a helper used by several guards): the state they were computed in
    /// (held, so its address is not reused) and (unit address, value) pairs.
    pub(super) state_memo: RefCell<(State, Vec<(usize, Value)>)>,
    /// Module definitions without parameters by the address of their body (built on first use).
    pub(super) body_defs: RefCell<Option<HashMap<usize, &'a OpDef>>>,
}

/// Compiled code (see `compile` and `plan`): expressions and action plans, with the value
/// stack they run on.
pub(super) struct CompiledCode<'a> {
    /// Compiled expressions (see `compile`): on or off; each node's entry in `roots` (0: not
    /// compiled), the first answers of which are kept in `roots_fast`; compiled definitions;
    /// definitions known to read no next state and have no effect; the value stack.
    pub(super) compiling: Cell<bool>,
    pub(super) roots: RefCell<Vec<Rc<compile::Root<'a>>>>,
    pub(super) roots_index: RefCell<HashMap<usize, u32>>,
    pub(super) roots_fast: PtrCache<u32>,
    pub(super) units: RefCell<HashMap<usize, Option<Rc<compile::Unit<'a>>>>>,
    pub(super) stack: RefCell<Vec<Value>>,
    /// Compiled actions (see `plan`) by the address of the action (`None`: not compiled).
    pub(super) plans: RefCell<HashMap<usize, Option<Rc<plan::Plan<'a>>>>>,
}

/// TLC's runtime state, as each TLC worker has its own: `TLCGet("level")`, the registers of
/// `TLCSet`/`TLCGet`, `TLCSet("exit", TRUE)`, what `Print` printed, and the action a
/// successor is counted under (coverage marks).
pub(super) struct TlcRuntime {
    pub(super) output: RefCell<Vec<String>>,
    /// What `TLCGet("level")` answers: as in TLC, the level of the state being expanded (an
    /// initial state is at level 1) while its successors are computed and checked, and 0
    /// while the initial states are (see `set_level`).
    pub(super) level: Cell<i32>,
    /// TLC's registers: what `TLCSet(i, v)` (or `TLCSet("s:name", v)`) set, for `TLCGet`.
    /// As in TLC, each evaluator (each worker) has its own, kept from state to state in the
    /// order of evaluation.
    pub(super) registers: RefCell<HashMap<Register, Value>>,
    /// `TLCSet("exit", TRUE)` was evaluated: the explorer stops (see `exit_requested`).
    pub(super) exit: Cell<bool>,
    /// What `TLCGet("config")` answers: the model checker's settings, as TLC's record of them
    /// (`None` where no run set them: simulation, the grader).
    pub(super) config: RefCell<Option<Value>>,
    /// The disjuncts of Next where one of TLC's actions begins, by address, with the action's
    /// number (see `split_action`); entering one sets `branch`, which names the action a
    /// successor comes from.
    pub(super) marks: RefCell<HashMap<usize, u32>>,
    pub(super) branch: Cell<u32>,
    /// Set while enumerating inside one action whole: marks met there are not followed.
    pub(super) branch_locked: Cell<bool>,
    /// The intermediate states of action compositions (`A \cdot B`) enumerated since the
    /// explorer last asked: TLC counts them as states generated (see `take_composed`).
    pub(super) composed: Cell<u64>,
    /// What `IOEnv` answers: the environment variables the host gave, as a record (`None`:
    /// none given, as in the browser).
    pub(super) environment: RefCell<Option<Value>>,
    /// The files and processes the host gives the I/O operators (`None`: none, as in the
    /// browser and the grader; see `crate::host`).
    pub(super) host: RefCell<Option<std::sync::Arc<dyn crate::host::Host>>>,
    /// The figures of the finished run, for `TLCGet("stats")` in a POSTCONDITION (`None`
    /// while exploring; see `set_run_figures`).
    pub(super) figures: RefCell<Option<super::RunFigures>>,
    /// The behaviour to the state being evaluated, for TLCExt's `Trace` (see `set_behaviour`).
    pub(super) behaviour: RefCell<Option<Vec<State>>>,
}

/// What the workers of a parallel run share: the program, and the values of its constant
/// definitions computed so far (TLC's workers share one tool with its constants defined once).
/// `Send + Sync`: each worker makes its own evaluator of it ([`ConstEval::from_shared`]), with
/// its own state, caches, compiled code and TLC registers, as each TLC worker has its own.
///
/// Values cross threads only while their counts are atomic (`crate::single_thread(false)`,
/// the default).
#[derive(Clone)]
pub struct SharedProgram<'a> {
    program: Arc<Program<'a>>,
    max_depth: u32,
    compiling: bool,
    /// Values of constant-level definitions already computed, by the definition's address.
    constants: Vec<(usize, Value)>,
    host: Option<Arc<dyn crate::host::Host>>,
    environment: Option<Value>,
}

impl<'a> ConstEval<'a> {
    /// The program, to change while loading (the `.cfg`'s constants and overrides, the
    /// variables, the levels). Once shared ([`ConstEval::share`]) an evaluator changing it
    /// gets a copy of its own: what others read never changes under them.
    pub(super) fn program_mut(&mut self) -> &mut Program<'a> {
        Arc::make_mut(&mut self.program)
    }

    /// This evaluator's program, for workers to share (see [`SharedProgram`]).
    pub fn share(&self) -> SharedProgram<'a> {
        SharedProgram {
            program: self.program.clone(),
            max_depth: self.frame.max_depth,
            compiling: self.code.compiling.get(),
            constants: self.caches.cache.borrow().iter().map(|(d, v)| (*d as usize, v.clone())).collect(),
            host: self.tlc.host.borrow().clone(),
            environment: self.tlc.environment.borrow().clone(),
        }
    }

    /// An evaluator of a shared program: the program itself is not copied, and the constants
    /// computed before it was shared are not computed again.
    pub fn from_shared(shared: &SharedProgram<'a>) -> ConstEval<'a> {
        let mut ev = ConstEval::around(shared.program.clone());
        ev.frame.max_depth = shared.max_depth;
        ev.caches.cache.get_mut().extend(shared.constants.iter().map(|(d, v)| (*d as *const OpDef, v.clone())));
        ev.code.compiling.set(shared.compiling);
        *ev.tlc.host.get_mut() = shared.host.clone();
        *ev.tlc.environment.get_mut() = shared.environment.clone();
        ev
    }

    /// Whether two evaluators read one program (not two copies).
    pub fn shares_program_with(&self, other: &ConstEval<'a>) -> bool {
        Arc::ptr_eq(&self.program, &other.program)
    }
}

// Workers share programs across threads: keep them shareable.
const _: fn() = || {
    fn shareable<T: Send + Sync>() {}
    shareable::<SharedProgram<'static>>();
};
