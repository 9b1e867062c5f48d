r"""An author's text as LaTeX: prose escaped, mathematics typeset as math.

The texts a source's author writes -- a claim's statement, quote,
assumptions and regime, a chain's title, a step's justification -- may hold
mathematics between two ``$`` signs (:func:`split_math`), which is typeset
as written (:func:`text_latex`); the rest is escaped for text mode
(:func:`escape_text`), where operators, Greek letters, super- and subscripts
written in ASCII or Unicode become inline math.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["escape_text", "split_math", "text_latex"]

# Text-mode replacements of characters TeX treats specially.
_TEXT_ESCAPES = {
    "{": r"\{",
    "}": r"\}",
    "&": r"\&",
    "#": r"\#",
    "%": r"\%",
    "_": r"\_",
    "^": r"\^{}",
    "~": r"\~{}",
}

# Typeset in math mode: "<", ">" and "|" print as other glyphs in the default
# OT1 text encoding, and their text-mode commands (and that of "$" at some
# sizes) need TS1 fonts, which may exist only as METAFONT sources; the
# math-mode glyphs are in every TeX installation. The operators written in
# ASCII are read as the relation they spell ("p >= 1" is p \geq 1, not
# "p $>$=").
_MATH_ESCAPES = {
    "\\": r"\backslash",
    "$": r"\$",
    "<": "<",
    ">": ">",
    "|": "|",
    "<=>": r"\Leftrightarrow",
    "<->": r"\leftrightarrow",
    ">=": r"\geq",
    "<=": r"\leq",
    "!=": r"\neq",
    "->": r"\to",
    "=>": r"\Rightarrow",
    "||": r"\|",
    "oo": r"\infty",
}

_UNICODE_MATH = {
    "≤": r"\leq",
    "≥": r"\geq",
    "≠": r"\neq",
    "≈": r"\approx",
    "≃": r"\simeq",
    "≡": r"\equiv",
    "∼": r"\sim",
    "∝": r"\propto",
    "≪": r"\ll",
    "≫": r"\gg",
    "→": r"\to",
    "←": r"\leftarrow",
    "↦": r"\mapsto",
    "⇒": r"\Rightarrow",
    "⇔": r"\Leftrightarrow",
    "∞": r"\infty",
    "∈": r"\in",
    "∉": r"\notin",
    "⊂": r"\subset",
    "⊆": r"\subseteq",
    "∩": r"\cap",
    "∪": r"\cup",
    "∀": r"\forall",
    "∃": r"\exists",
    "·": r"\cdot",
    "×": r"\times",
    "−": "-",
    "∑": r"\sum",
    "∏": r"\prod",
    "∫": r"\int",
    "√": r"\surd",
    "‖": r"\|",
    "∘": r"\circ",
    "⊙": r"\odot",
    "⊗": r"\otimes",
    "⊕": r"\oplus",
    "±": r"\pm",
    "∂": r"\partial",
    "∇": r"\nabla",
    "⊤": r"\top",
    "ℓ": r"\ell",
    "⟨": r"\langle",
    "⟩": r"\rangle",
    "∥": r"\parallel",
    "⊥": r"\perp",
    "∣": r"\mid",
    "≲": r"\lesssim",
    "≳": r"\gtrsim",
    "⌊": r"\lfloor",
    "⌋": r"\rfloor",
    "⌈": r"\lceil",
    "⌉": r"\rceil",
    "∅": r"\emptyset",
    "∧": r"\wedge",
    "∨": r"\vee",
    "¬": r"\neg",
    "≔": ":=",
    "′": "'",
    "″": "''",
    "∗": "*",
    "⋅": r"\cdot",
    "°": r"^{\circ}",
    "ϵ": r"\epsilon",
    "ϕ": r"\phi",
    "ϑ": r"\vartheta",
    "ℝ": r"\mathbb{R}",
    "ℕ": r"\mathbb{N}",
    "ℤ": r"\mathbb{Z}",
    "ℚ": r"\mathbb{Q}",
    "ℂ": r"\mathbb{C}",
    "𝔼": r"\mathbb{E}",
    "ℙ": r"\mathbb{P}",
    "½": r"\tfrac{1}{2}",
    # The text-mode \S needs a TS1 font (see _MATH_ESCAPES).
    "§": r"\S",
}

# Runs of Unicode super- and subscripts become one script ("⁻¹" is ^{-1}).
_SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ᵀ", [*"0123456789+-", r"\top"], strict=True))
_SUBSCRIPTS = dict(zip("₀₁₂₃₄₅₆₇₈₉₊₋", "0123456789+-", strict=True))

# Combining accents: over a letter typeset in math (a Greek letter), the math
# accent; over a Latin letter, the text accent.
_MATH_ACCENTS = {"\u0303": r"\tilde", "\u0302": r"\hat", "\u0304": r"\bar"}
_TEXT_ACCENTS = {
    "\u0300": "`",
    "\u0301": "'",
    "\u0302": "^",
    "\u0303": "~",
    "\u0304": "=",
    "\u0308": '"',
    "\u0327": "c",
}

# Capital Greek letters without a command of their own print as these Latin ones.
_GREEK_AS_LATIN = {
    "Alpha": "A",
    "Beta": "B",
    "Epsilon": "E",
    "Zeta": "Z",
    "Eta": "H",
    "Iota": "I",
    "Kappa": "K",
    "Mu": "M",
    "Nu": "N",
    "Omicron": "O",
    "Rho": "P",
    "Tau": "T",
    "Chi": "X",
    "omicron": "o",
}

_UNICODE_TEXT = {
    "–": "--",
    "—": "---",
    "‘": "`",
    "’": "'",
    "“": "``",
    "”": "''",
    "…": r"\dots{}",
    "\u00a0": "~",
}

#: What a bracketed ASCII script may hold to be typeset as one.
_SCRIPT = r"[A-Za-z0-9+\-*/.,= ]{1,16}"

_TOKEN = re.compile(
    "|".join(
        [
            *(
                re.escape(operator)
                for operator in sorted(_MATH_ESCAPES, key=len, reverse=True)
                if len(operator) > 1 and operator != "oo"
            ),
            # SymPy's spelling of infinity, as a word of its own ("n -> oo").
            r"(?<![A-Za-z0-9])oo(?![A-Za-z0-9])",
            # ASCII scripts: "x^2", "u^-1", "a^(L-1)", "x^T", "w_h", "W_{L-1}";
            # a longer run after "_" is a name ("scratch_risk_finite").
            rf"(?<=[A-Za-z0-9)\]|*])\^(?:-?[0-9]+(?:\.[0-9]+)?|-?[A-Za-z]"
            rf"(?![A-Za-z0-9])|\({_SCRIPT}\)|\{{{_SCRIPT}\}})",
            rf"(?<=[A-Za-z0-9)\]])_(?:[A-Za-z0-9]{{1,3}}(?![A-Za-z0-9_])"
            rf"|\{{{_SCRIPT}\}})",
            f"[{''.join(_SUPERSCRIPTS)}]+",
            f"[{''.join(_SUBSCRIPTS)}]+",
            r".[\u0300-\u036f]*",
        ]
    ),
    re.DOTALL,
)


def _greek(character: str) -> str | None:
    name = unicodedata.name(character, "")
    match = re.fullmatch(r"GREEK (SMALL|CAPITAL) LETTER ([A-Z]+)", name)
    if match is None:
        return None
    # Unicode spells the letter "LAMDA".
    letter = match.group(2).lower().replace("lamda", "lambda")
    if match.group(1) == "CAPITAL":
        letter = letter.capitalize()
    if letter in _GREEK_AS_LATIN:
        return rf"\mathrm{{{_GREEK_AS_LATIN[letter]}}}"
    return "\\" + letter


def _piece(token: str) -> tuple[bool, str]:
    """``token`` in LaTeX, and whether that is math (True) or text (False)."""
    if token in _MATH_ESCAPES:
        return True, _MATH_ESCAPES[token]
    if token in _TEXT_ESCAPES:
        return False, _TEXT_ESCAPES[token]
    if token[0] in "^_" and len(token) > 1:
        # A bracketed script loses its brackets: a^(L-1) is a^{L-1}.
        return True, f"{token[0]}{{{token[1:].strip('(){}')}}}"
    if token[0] in _SUPERSCRIPTS:
        return True, "^{" + "".join(_SUPERSCRIPTS[c] for c in token) + "}"
    if token[0] in _SUBSCRIPTS:
        return True, "_{" + "".join(_SUBSCRIPTS[c] for c in token) + "}"
    if token.isascii():
        return False, token
    if token in _UNICODE_TEXT:
        return False, _UNICODE_TEXT[token]
    if token in _UNICODE_MATH:
        return True, _UNICODE_MATH[token]
    base, accents = token[0], token[1:]
    if not accents:
        greek = _greek(base)
        if greek is not None:
            return True, greek
        decomposed = unicodedata.normalize("NFD", base)
        if decomposed == base:
            # A character pdflatex has no glyph for is named, so the document
            # still compiles and the reader sees what was there.
            return False, f"[U+{ord(base):04X}]"
        base, accents = decomposed[0], decomposed[1:]
    is_math, latex = _piece(base)
    for accent in accents:
        if is_math and accent in _MATH_ACCENTS:
            latex = f"{_MATH_ACCENTS[accent]}{{{latex}}}"
        elif not is_math and accent in _TEXT_ACCENTS:
            latex = f"\\{_TEXT_ACCENTS[accent]}{{{latex}}}"
        else:
            return False, latex + f"[U+{ord(accent):04X}]"
    return is_math, latex


def escape_text(text: str) -> str:
    r"""``text`` escaped for LaTeX text mode, its mathematics typeset as math.

    Runs of white space become one space. The ten special characters
    become their text-mode commands; operators
    written in ASCII (``>=``, ``<=``, ``!=``, ``->``, ``=>``, ``||``; ``oo``
    for infinity), ``<``, ``>`` and ``|`` (other glyphs in the default OT1
    encoding), Greek letters, super- and subscripts and mathematical symbols
    written in Unicode become inline math, adjacent ones in one ``$...$``.

    Examples:
      >>> escape_text("risk_finite & 5% #1, m_h")
      'risk\\_finite \\& 5\\% \\#1, m$_{h}$'
      >>> escape_text("p >= 1, ω̃(β²)")
      'p $\\geq$ 1, $\\tilde{\\omega}$($\\beta^{2}$)'
    """
    # A blank line would end the paragraph inside a command's argument.
    pieces = _escaped_pieces(" ".join(text.split()))
    return "".join(f"${latex}$" if is_math else latex for is_math, latex in pieces)


def _escaped_pieces(text: str) -> list[tuple[bool, str]]:
    """``text`` (its white space as it is) as :func:`escape_text` sets it:
    (is math, LaTeX) pieces, adjacent math in one piece."""
    pieces: list[tuple[bool, str]] = []
    for token in _TOKEN.findall(text):
        is_math, latex = _piece(token)
        if is_math and pieces and pieces[-1][0]:
            # One formula: "$a$$b$" would open display math in some contexts.
            pieces[-1] = (True, pieces[-1][1] + latex)
        else:
            pieces.append((is_math, latex))
    return pieces


#: Mathematics in an author's text: what stands between two ``$`` signs.
_MATH_SPAN = re.compile(r"\$([^$]+)\$")


def split_math(text: str) -> list[tuple[bool, str]]:
    r"""An author's text cut into prose and the mathematics it writes between
    two ``$`` signs: ``(True, the LaTeX between them)`` or ``(False, prose)``.

    The rule for the texts a source's author writes (statements, quotes,
    assumptions, regimes, a chain's title, a step's justification): the
    ledger (:func:`text_latex`) and the docs pages typeset the mathematics
    as written, the command line prints the text as it is. A ``$`` left
    without a partner is a dollar sign.

    Examples:
      >>> split_math(r"for $\rho < 1$ the cost is $5")
      [(False, 'for '), (True, '\\rho < 1'), (False, ' the cost is $5')]
    """
    pieces: list[tuple[bool, str]] = []
    end = 0
    for match in _MATH_SPAN.finditer(text):
        if match.start() > end:
            pieces.append((False, text[end : match.start()]))
        pieces.append((True, match.group(1)))
        end = match.end()
    if end < len(text):
        pieces.append((False, text[end:]))
    return pieces


def text_latex(text: str) -> str:
    r"""An author's text for LaTeX text mode: its ``$...$`` mathematics as
    written (:func:`split_math`), the rest escaped as by :func:`escape_text`.

    Examples:
      >>> text_latex(r"$\hat M$ is the 50% fit, M_hat in ASCII")
      '$\\hat M$ is the 50\\% fit, M$_{hat}$ in ASCII'
      >>> text_latex(r"$x$>= 1")  # one formula: "$x$$\geq$" would not compile
      '$x \\geq$ 1'
    """
    pieces: list[tuple[bool, str]] = []
    # A blank line would end the paragraph inside a command's argument.
    for is_math, piece in split_math(" ".join(text.split())):
        for math, latex in [(True, piece)] if is_math else _escaped_pieces(piece):
            if math and pieces and pieces[-1][0]:
                # A space, so that "\alpha" and "b" do not become "\alphab".
                pieces[-1] = (True, f"{pieces[-1][1]} {latex}")
            else:
                pieces.append((math, latex))
    return "".join(f"${latex}$" if is_math else latex for is_math, latex in pieces)
