r"""The errors in ptft-relu-penalty that its failing claims show.

One :class:`~implicit_bias.claims.findings.Slip` per error, with the severity
of :mod:`implicit_bias.claims.findings` (substantive, minor, typo); the
claims showing it name it in ``slip``. Equation numbers are those of the
appendix on the PT+FT penalty of shallow ReLU networks of Lippl and Lindsey,
"Inductive biases of multi-task learning and finetuning" (NeurIPS 2024).
"""

from __future__ import annotations

from implicit_bias.claims.findings import Severity, Slip

__all__ = ["SLIPS"]

#: The slips, in the order of the text.
SLIPS = (
    Slip(
        "divergence-at-zero-6",
        Severity.MINOR,
        "After (6): p(u) 'diverges to oo both for u -> oo and u -> 0'; as u -> 0 "
        "it does only for m_h != 0: at m_h = 0, p(u) -> gamma^2 + m0^2. The edge "
        "case is a unit the fine-tuning task does not use; there p is the "
        "quadratic (8) with m_h = 0, its stationary point u = m0 rho (if rho > 0) "
        "is still its minimum and (10) reads u^3 (u - m0 rho) = 0, so the "
        "argument from a unique positive stationary point to the minimum (11) "
        "survives.",
    ),
    Slip(
        "log-derivative-sec-1.2",
        Severity.MINOR,
        "Section 1.2 reads the printed derivative d log r~/dm against 2 "
        "(l2-like) and 1 (l1-like); those are the values of the log-log slope "
        "d log r~/d log m = m d log r~/dm (|m|^p has slope p), while d log r~/dm "
        "of |m|^p is p/m: a fresh unit, r~ = 2|m_h| (exactly l1), has "
        "d log r~/dm = 2 at m_h = 1/2. A wrong criterion rather than a wrong "
        "result: the two derivatives differ by the factor m and agree at m = 1, "
        "where the text reads the norm (m ~ 1), and with the log-log slope the "
        "criterion holds (sec-1.2:log-log-derivative).",
    ),
)
