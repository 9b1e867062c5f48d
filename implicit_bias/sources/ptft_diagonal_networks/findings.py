r"""The errors in ptft-diagonal-networks that its failing claims show.

One :class:`~implicit_bias.claims.findings.Slip` per error, with the severity
of :mod:`implicit_bias.claims.findings` (substantive, minor, typo); the
claims showing it name it in ``slip``. Equation numbers are those of Appendices
A and B.1 of Lippl and Lindsey, "Inductive biases of multi-task learning and
finetuning" (NeurIPS 2024).

* (8) and (9): one missing minus sign, printed in both gradients.
* (18)-(19) and (20): one misprinted factor 2 in (18)-(19); (20) is right and
  fails only as the step from the misprint.
* (26): a proof step the reduction to (27) survives.
"""

from __future__ import annotations

from implicit_bias.claims.findings import Severity, Slip

__all__ = ["SLIPS"]

#: The slips, in the order of the text.
SLIPS = (
    Slip(
        "gradient-sign-8-9",
        Severity.TYPO,
        "(8) and (9) write the flow as w-dot = grad L, which is gradient ascent; "
        "their right-hand sides, -2 X~^T r o w^(2) and -2 X~^T r o w^(1) with "
        "r = X~(w^(1) o w^(2)) - y, are -grad L, the gradient flow that (10)-(14) "
        "integrate (Woodworth et al.'s w-dot = -grad L). No sign convention for the "
        "undefined r makes the chain as printed right: one minus sign is missing "
        "before the gradient, the same in both equations, and the derivation after "
        "them uses the right flow.",
    ),
    Slip(
        "factor-2-in-18-19",
        Severity.TYPO,
        "(18)-(19) print the coefficients 2 s0^2 and 2 d0^2 where (17) with "
        "(13)-(14) gives s0^2 and d0^2, so as printed they are twice beta(t). "
        "(20), 2(s0^2 + d0^2) sinh(-4 X^T int r), and (21) are right: the step "
        "from (18)-(19) to (20) fails only against this one misprint, and the "
        "penalty (22) that follows stands.",
    ),
    Slip(
        "one-branch-zero-26",
        Severity.MINOR,
        "After (26) the text says that in the minimum parameter norm solution all "
        "+ or all - weights of each input dimension are zero; minimizers with both "
        "branches nonzero exist (O = 1: w+ = (1, 1), w- = (1, -1) give beta_d = 2 "
        "at norm 4 = 2|beta_d|), as any balanced split aligned with beta_d attains "
        "the minimum 2||beta_d||. A minimizer with the - branch zero always exists, "
        "so the reduction to (27) 'without loss of generality' and the l_{1,2} "
        "penalty survive.",
    ),
)
