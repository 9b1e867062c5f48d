"""The claim engine: verdicts, budgets, failures of checks, and the records."""

from __future__ import annotations

import os
import time

import pytest

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.claims.engine import (
    Basis,
    CheckTimeout,
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
    Verdict,
    WorkerDeath,
    conjunction,
    run_claims,
    run_in_workers,
    WALL_BACKSTOP_FACTOR,
    time_limit,
    unique_ids,
)


def _claim(
    check,
    expected=Status.HOLDS,
    budget=10.0,
    label="x",
    corrects=None,
    expected_reason=None,
) -> Claim:
    return Claim(
        "test-source",
        "1",
        label,
        Kind.NUMERIC,
        "a statement",
        check,
        expected,
        corrects=corrects,
        budget_seconds=budget,
        expected_reason=expected_reason,
    )


def _sleep_forever() -> Verdict:
    time.sleep(60)
    return Verdict.holds("woke up", Basis.PROOF)


def _spin_forever() -> Verdict:
    while True:
        sum(range(1000))


def _spin_in_c() -> Verdict:
    # One long call into C: Python's signal handlers cannot run inside it.
    import numpy as np

    rng = np.random.default_rng(0)
    a = rng.standard_normal((3000, 3000))
    while True:
        a = np.linalg.qr(a)[0]


def _swallow_timeouts() -> Verdict:
    while True:
        try:
            while True:
                sum(range(1000))
        except Exception:  # the point: a check that hides every error
            pass


def _spin_cpu(seconds: float) -> None:
    """Use ``seconds`` of CPU time (bounded, so a broken limit cannot hang)."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        sum(range(1000))


def _raise() -> Verdict:
    raise ZeroDivisionError("boom")


def _not_a_verdict() -> Verdict:
    return "holds"  # type: ignore[return-value]


def test_claim_id_joins_source_equation_label() -> None:
    assert _claim(lambda: Verdict.holds("", Basis.PROOF)).id == "test-source:1:x"


def test_verdicts_come_back_in_order_with_timings() -> None:
    claims = [
        _claim(lambda: Verdict.holds("fine", Basis.PROOF), label="a"),
        _claim(
            lambda: Verdict.fails("residual 1", Basis.CERTIFIED),
            Status.FAILS,
            label="b",
        ),
    ]
    results = run_claims(claims, workers=2)
    assert [r.claim.label for r in results] == ["a", "b"]
    assert [r.verdict.status for r in results] == [Status.HOLDS, Status.FAILS]
    assert all(r.as_expected and r.seconds >= 0 for r in results)


@pytest.mark.parametrize("check", [_spin_forever, _spin_in_c, _swallow_timeouts])
def test_a_check_past_its_cpu_budget_is_killed_and_inconclusive(check) -> None:
    (result,) = run_claims([_claim(check, budget=1.0)])
    assert result.verdict.status == Status.INCONCLUSIVE
    assert "time budget of 1 s of CPU time" in result.verdict.detail
    assert result.verdict.reason == Reason.BUDGET
    assert not result.as_expected


def test_a_check_that_waits_is_stopped_by_the_wall_clock_backstop() -> None:
    (result,) = run_claims([_claim(_sleep_forever, budget=0.3)])
    assert result.verdict.status == Status.INCONCLUSIVE
    assert "wall-clock backstop" in result.verdict.detail
    assert result.verdict.reason == Reason.BUDGET
    assert result.seconds >= WALL_BACKSTOP_FACTOR * 0.3


@pytest.mark.parametrize(
    ("check", "fragment"),
    [(_raise, "ZeroDivisionError: boom"), (_not_a_verdict, "not a Verdict")],
)
def test_a_broken_check_is_inconclusive_with_the_reason(check, fragment: str) -> None:
    (result,) = run_claims([_claim(check)])
    assert result.verdict.status == Status.INCONCLUSIVE
    assert result.verdict.reason == Reason.CRASH
    assert fragment in result.verdict.detail


@pytest.mark.parametrize("check", [_raise, _not_a_verdict])
def test_a_crash_never_matches_an_expected_inconclusive(check) -> None:
    statistical = _claim(check, Status.INCONCLUSIVE, expected_reason=Reason.STATISTICAL)
    (result,) = run_claims([statistical])
    assert result.verdict.status == Status.INCONCLUSIVE
    assert not result.as_expected


def test_an_expected_inconclusive_matches_only_its_reason() -> None:
    def undecided() -> Verdict:
        return Verdict.inconclusive("could not tell", Reason.UNDECIDED)

    def within_noise() -> Verdict:
        return Verdict.inconclusive("0.3 SE", Reason.STATISTICAL)

    expecting = {"expected": Status.INCONCLUSIVE, "expected_reason": Reason.STATISTICAL}
    results = run_claims(
        [
            _claim(undecided, label="a", **expecting),
            _claim(within_noise, label="b", **expecting),
        ]
    )
    assert [r.as_expected for r in results] == [False, True]
    record = results[1].as_record()
    assert (record["reason"], record["expected_reason"]) == (
        "statistical",
        "statistical",
    )


def test_an_expected_inconclusive_names_its_reason_and_never_a_crash() -> None:
    with pytest.raises(InvalidArgumentError, match="expected_reason"):
        _claim(_raise, Status.INCONCLUSIVE)
    with pytest.raises(InvalidArgumentError, match="may not expect a crash"):
        _claim(_raise, Status.INCONCLUSIVE, expected_reason=Reason.CRASH)
    with pytest.raises(InvalidArgumentError, match="expected_reason"):
        _claim(_raise, Status.HOLDS, expected_reason=Reason.STATISTICAL)


def test_a_verdict_has_a_reason_exactly_when_inconclusive() -> None:
    with pytest.raises(InvalidArgumentError, match="reason"):
        Verdict(Status.INCONCLUSIVE, "no reason given")
    with pytest.raises(InvalidArgumentError, match="reason"):
        Verdict(Status.HOLDS, "shown", Reason.UNDECIDED)
    assert Verdict.inconclusive("?").reason == Reason.UNDECIDED
    budget = Verdict.inconclusive("slow", Reason.BUDGET).with_detail("step 2: slow")
    assert (budget.status, budget.reason) == (Status.INCONCLUSIVE, Reason.BUDGET)


def test_a_conjunction_fails_on_any_failure_and_is_undecided_otherwise() -> None:
    shown, refuted = (
        Verdict.holds("a", Basis.PROOF),
        Verdict.fails("b", Basis.CERTIFIED),
    )
    timed_out = Verdict.inconclusive("c", Reason.BUDGET)
    assert conjunction((shown, shown), "d").status == Status.HOLDS
    assert conjunction((timed_out, refuted), "d").status == Status.FAILS
    undecided = conjunction((shown, timed_out), "d")
    assert (undecided.status, undecided.reason) == (Status.INCONCLUSIVE, Reason.BUDGET)


def test_an_unexpected_verdict_is_flagged() -> None:
    (result,) = run_claims(
        [_claim(lambda: Verdict.fails("no", Basis.CERTIFIED), expected=Status.HOLDS)]
    )
    assert not result.as_expected


def test_record_has_the_documented_keys() -> None:
    (result,) = run_claims(
        [_claim(lambda: Verdict.holds("ok", Basis.PROOF), corrects="test-source:1:y")]
    )
    record = result.as_record()
    for key in ("id", "source", "equation", "kind", "status", "detail", "seconds"):
        assert key in record
    assert record["corrects"] == "test-source:1:y"
    assert record["status"] == "holds"


def test_time_limit_interrupts_python_work() -> None:
    def spin() -> None:
        with time_limit(0.2):
            while True:
                sum(range(1000))

    with pytest.raises(CheckTimeout):
        spin()


def _swallow_one_timeout_then_spin() -> int:
    swallowed = 0
    with time_limit(0.05):
        try:
            _spin_cpu(2.0)
        except CheckTimeout:
            # As a garbage-collector callback or a __del__ would.
            swallowed += 1
        _spin_cpu(2.0)
    return swallowed


def test_a_swallowed_timeout_fires_again() -> None:
    with pytest.raises(CheckTimeout, match=r"0\.05 s"):
        _swallow_one_timeout_then_spin()


def test_time_limit_does_not_fire_after_the_block() -> None:
    with time_limit(0.05):
        pass
    _spin_cpu(0.2)


def test_time_limit_counts_cpu_time_not_waiting() -> None:
    # A busy machine slows a step down without making it use more CPU; the
    # limit must not fire for time the process spends off the CPU.
    with time_limit(0.1):
        time.sleep(0.3)


def _inner_limits_then_spin() -> None:
    with time_limit(5.0):
        pass
    with time_limit(0.05):
        pass
    _spin_cpu(5.0)


def test_an_inner_limit_keeps_the_outer_one_running() -> None:
    with pytest.raises(CheckTimeout, match=r"0\.5 s"), time_limit(0.5):
        _inner_limits_then_spin()


def _spin_under_a_loose_limit() -> None:
    with time_limit(10.0):
        _spin_cpu(5.0)


def test_an_inner_limit_looser_than_the_outer_keeps_the_outer() -> None:
    with pytest.raises(CheckTimeout, match=r"0\.3 s"), time_limit(0.3):
        _spin_under_a_loose_limit()


def test_the_tighter_inner_limit_fires_first() -> None:
    with time_limit(5.0):
        with pytest.raises(CheckTimeout, match=r"0\.1 s"), time_limit(0.1):
            _spin_cpu(5.0)
        _spin_cpu(0.1)


@pytest.mark.parametrize("seconds", [0.0, -1.0, float("nan")])
def test_time_limit_needs_a_positive_duration(seconds: float) -> None:
    with pytest.raises(ValueError, match="seconds"), time_limit(seconds):
        pass


def test_duplicate_ids_are_rejected() -> None:
    claim = _claim(lambda: Verdict.holds("", Basis.PROOF))
    with pytest.raises(ValueError, match="duplicate claim id"):
        unique_ids([claim, claim])


def test_a_decided_verdict_names_its_basis() -> None:
    with pytest.raises(InvalidArgumentError, match="basis"):
        Verdict(Status.HOLDS, "shown")
    with pytest.raises(InvalidArgumentError, match="basis"):
        Verdict(Status.FAILS, "refuted")
    assert Verdict.decide(True, "d", Basis.NUMERICAL) == Verdict.holds(
        "d", Basis.NUMERICAL
    )
    assert Verdict.decide(False, "d", Basis.PROOF).status == Status.FAILS
    # An inconclusive verdict may say what was tried.
    tried = Verdict.inconclusive("2.1 SE", Reason.STATISTICAL, Basis.STATISTICAL)
    assert tried.basis == Basis.STATISTICAL


def test_a_conjunction_holds_on_its_weakest_basis_and_fails_on_the_failing_part() -> (
    None
):
    proof = Verdict.holds("a", Basis.PROOF)
    numbers = Verdict.holds("b", Basis.NUMERICAL)
    runs = Verdict.holds("c", Basis.STATISTICAL)
    assert conjunction((proof, numbers), "d").basis == Basis.NUMERICAL
    assert conjunction((runs, proof, numbers), "d").basis == Basis.STATISTICAL
    refuted = Verdict.fails("e", Basis.CERTIFIED, "at x=1, in [1 +/- 0]")
    failed = conjunction((proof, refuted), "f")
    assert (failed.basis, failed.counterexample) == (
        Basis.CERTIFIED,
        "at x=1, in [1 +/- 0]",
    )


def test_records_carry_the_basis_the_reading_and_the_counterexample() -> None:
    claim = Claim(
        "test-source",
        "1",
        "x",
        Kind.IDENTITY,
        "statement",
        lambda: Verdict.fails("no", Basis.CERTIFIED, "at x=2"),
        Status.FAILS,
        quote="x = 1",
        reading=Reading.PRINTED,
        regime="x in [1, 3], the text's range",
    )
    (result,) = run_claims([claim])
    record = result.as_record()
    assert (record["basis"], record["counterexample"]) == ("certified", "at x=2")
    assert (record["quote"], record["reading"], record["regime"]) == (
        "x = 1",
        "printed",
        "x in [1, 3], the text's range",
    )


@pytest.mark.parametrize("reuse_workers", [False, True])
def test_workers_report_what_became_of_a_task_without_a_value(
    reuse_workers: bool,
) -> None:
    outcomes: dict[int, object] = {}

    def spin() -> None:
        while True:
            sum(range(1000))

    def raise_error() -> None:
        raise RuntimeError("broken task")

    run_in_workers(
        [
            (lambda: 7, 5.0),
            (spin, 1.0),
            (lambda: os._exit(3), 5.0),
            (raise_error, 5.0),
            (lambda: lambda: None, 5.0),
            (lambda: 8, 5.0),
        ],
        workers=2,
        on_done=lambda index, value, seconds: outcomes.__setitem__(index, value),
        reuse_workers=reuse_workers,
    )
    assert outcomes[0] == 7
    assert outcomes[1] == WorkerDeath(
        True, "exceeded its time budget of 1 s of CPU time"
    )
    assert outcomes[2] == WorkerDeath(False, "worker died (exit code 3)")
    assert outcomes[3] == WorkerDeath(False, "worker died (exit code 1)")
    # A value that does not pickle ends its worker too.
    assert outcomes[4] == WorkerDeath(False, "worker died (exit code 1)")
    # Whatever became of the workers before, the last task runs.
    assert outcomes[5] == 8


def test_a_conjunction_of_nothing_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="parts"):
        conjunction((), "nothing shown")


def _thread_pools_of_worker() -> tuple[list[int], str | None]:
    from threadpoolctl import threadpool_info

    return (
        [pool["num_threads"] for pool in threadpool_info()],
        os.environ.get("OPENBLAS_NUM_THREADS"),
    )


@pytest.mark.parametrize("reuse_workers", [False, True])
def test_each_worker_runs_its_blas_on_its_share_of_the_cores(
    reuse_workers: bool,
) -> None:
    # The pools loaded before the fork are limited (found once, in the
    # parent); a pool a check loads later starts at the size the environment
    # gives it.
    seen: list[tuple[list[int], str | None]] = []
    run_in_workers(
        [(_thread_pools_of_worker, 30.0)] * 2,
        workers=2,
        on_done=lambda index, value, seconds: seen.append(value),
        reuse_workers=reuse_workers,
    )
    share = max(1, (os.cpu_count() or 1) // 2)
    assert len(seen) == 2
    for counts, variable in seen:
        assert counts
        assert all(count == share for count in counts), counts
        assert variable == str(share)


def _outcomes(tasks, **options) -> dict[int, object]:
    outcomes: dict[int, object] = {}
    run_in_workers(
        tasks,
        on_done=lambda index, value, seconds: outcomes.__setitem__(index, value),
        **options,
    )
    return outcomes


@pytest.mark.parametrize("reuse_workers", [False, True])
def test_reused_workers_run_task_after_task_in_one_process(
    reuse_workers: bool,
) -> None:
    outcomes = _outcomes([(os.getpid, 5.0)] * 3, workers=1, reuse_workers=reuse_workers)
    pids = set(outcomes.values())
    assert os.getpid() not in pids
    assert len(pids) == (1 if reuse_workers else 3)


def _burn(seconds: float) -> float:
    start = time.process_time()
    while time.process_time() - start < seconds:
        sum(range(1000))
    return seconds


def test_each_task_of_a_reused_worker_gets_its_own_cpu_budget() -> None:
    # Three tasks of 0.75 s CPU, each within its 1 s budget, in one process:
    # a limit counted from the worker's start (2 s, the first budget rounded
    # up) would kill the third.
    outcomes = _outcomes(
        [(lambda: _burn(0.75), 1.0)] * 3, workers=1, reuse_workers=True
    )
    assert outcomes == {0: 0.75, 1: 0.75, 2: 0.75}


def _disturb_global_state() -> None:
    import random
    import warnings

    import mpmath
    import numpy as np
    import sympy.core.random as sympy_random
    from sympy.core.parameters import global_parameters

    mpmath.mp.dps = 60
    np.seterr(all="raise")
    np.set_printoptions(precision=2)
    np.random.seed(1)  # noqa: NPY002
    random.seed(1)
    warnings.simplefilter("error")
    global_parameters.evaluate = False
    sympy_random.seed(5)
    os.environ["IMPLICIT_BIAS_TEST_VARIABLE"] = "set"
    os.chdir("/")


def _global_state() -> tuple:
    import random
    import warnings

    import mpmath
    import numpy as np
    import sympy.core.random as sympy_random
    from sympy.core.parameters import global_parameters

    return (
        mpmath.mp.dps,
        np.geterr()["over"],
        np.get_printoptions()["precision"],
        float(np.random.random()),  # noqa: NPY002
        random.random(),
        len(warnings.filters),
        global_parameters.evaluate,
        os.environ.get("IMPLICIT_BIAS_TEST_VARIABLE"),
        os.getcwd(),
        sympy_random.rng.random(),
    )


def test_a_reused_worker_undoes_what_a_task_changed_of_the_process() -> None:
    # What a fresh worker sees, and what the task after a disturbing one sees
    # in a reused worker, must be the same.
    fresh = _outcomes([(_global_state, 5.0)], workers=1)[0]
    after = _outcomes(
        [(_disturb_global_state, 5.0), (_global_state, 5.0)],
        workers=1,
        reuse_workers=True,
    )[1]
    # Python's random is reseeded in every forked child: not comparable to a
    # fresh worker's draw, but not the draw after the task's seed either.
    import random

    assert after[:4] + after[5:] == fresh[:4] + fresh[5:]
    assert after[4] != random.Random(1).random()
    assert fresh[0] != 60
    assert fresh[7] is None


_WARMED: list[str] = []


def test_tasks_that_need_no_warm_up_run_beside_it(tmp_path) -> None:
    # The warm-up waits for a file that only a task needing no warm-up
    # writes: it ends only if that task runs while it is under way.
    signal_file = tmp_path / "started"

    def warm_up() -> None:
        deadline = time.monotonic() + 60
        while not signal_file.exists():
            if time.monotonic() > deadline:
                raise AssertionError("no task ran beside the warm-up")
            time.sleep(0.01)
        _WARMED.append("warm")

    def write_signal() -> list[str]:
        signal_file.write_text("started")
        return list(_WARMED)

    _WARMED.clear()
    outcomes = _outcomes(
        [(lambda: list(_WARMED), 30.0), (write_signal, 30.0)],
        workers=2,
        reuse_workers=True,
        warm_up=warm_up,
        needs_warm_up=[True, False],
    )
    # The task that needs it sees the warm-up; the one run beside it, not.
    assert outcomes == {0: ["warm"], 1: []}
    _WARMED.clear()


@pytest.mark.parametrize(("reuse_workers", "workers"), [(False, 2), (True, 1)])
def test_a_warm_up_runs_first_without_a_worker_to_spare(
    reuse_workers: bool, workers: int
) -> None:
    _WARMED.clear()
    outcomes = _outcomes(
        [(lambda: list(_WARMED), 30.0)] * 2,
        workers=workers,
        reuse_workers=reuse_workers,
        warm_up=lambda: _WARMED.append("warm"),
        needs_warm_up=[False, True],
    )
    assert outcomes == {0: ["warm"], 1: ["warm"]}
    _WARMED.clear()


def test_a_warm_up_that_raises_stops_the_run() -> None:
    def broken() -> None:
        raise RuntimeError("warm-up broke")

    with pytest.raises(RuntimeError, match="warm-up broke"):
        _outcomes(
            [(lambda: 1, 30.0)] * 3,
            workers=2,
            reuse_workers=True,
            warm_up=broken,
            needs_warm_up=[True, False, True],
        )


def test_needs_warm_up_gives_one_flag_per_task() -> None:
    with pytest.raises(InvalidArgumentError, match="needs_warm_up"):
        _outcomes([(lambda: 1, 5.0)] * 2, needs_warm_up=[True])


def _exit_soon() -> str:
    import threading

    # The worker dies after its value was read, before the next task is sent.
    threading.Timer(0.2, os._exit, (0,)).start()
    return "zero"


def test_a_worker_that_dies_idle_loses_no_task() -> None:
    outcomes: dict[int, object] = {}

    def done(index: int, value: object, seconds: float) -> None:
        outcomes[index] = value
        if index == 0:
            time.sleep(1.0)

    run_in_workers(
        [(_exit_soon, 5.0), (lambda: "one", 5.0)],
        workers=1,
        on_done=done,
        reuse_workers=True,
    )
    assert outcomes == {0: "zero", 1: "one"}


def test_workers_that_keep_dying_give_each_task_one_death(monkeypatch) -> None:
    import implicit_bias.claims.engine as engine

    monkeypatch.setattr(engine, "_serve_tasks", lambda *args: os._exit(5))
    outcomes = _outcomes([(lambda: 1, 5.0)] * 2, workers=2, reuse_workers=True)
    assert set(outcomes) == {0, 1}
    # Each task is refused by three workers (none said it started), then
    # reported lost with them: no task is blamed for a death it did not cause.
    assert outcomes == dict.fromkeys(
        (0, 1),
        WorkerDeath(
            False,
            "3 workers died before the task reached them (the last with exit code 5)",
        ),
    )


def test_a_task_is_not_blamed_for_a_worker_that_died_before_it_started(
    monkeypatch, tmp_path
) -> None:
    import implicit_bias.claims.engine as engine

    serve = engine._serve_tasks
    first = tmp_path / "first-worker"

    def die_once(tasks, connection, threads) -> None:
        if not first.exists():
            first.write_text("died")
            connection.recv()
            os._exit(5)
        serve(tasks, connection, threads)

    monkeypatch.setattr(engine, "_serve_tasks", die_once)
    outcomes = _outcomes([(lambda: "ran", 5.0)], workers=1, reuse_workers=True)
    assert outcomes == {0: "ran"}


@pytest.mark.parametrize("workers", [0, -1, 1.5, True])
def test_workers_must_be_a_positive_count(workers) -> None:
    with pytest.raises(InvalidArgumentError, match="workers"):
        _outcomes([(lambda: 1, 5.0)], workers=workers)
