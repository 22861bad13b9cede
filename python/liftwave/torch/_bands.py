"""Where the bands of a Mallat coefficient array lie, and which band shapes fit.

A Mallat array of `levels` levels over the last `naxes` axes holds, at level j
(1 = finest), the bands of the all-lowpass region of level j - 1: along each
axis of length n the first ceil(n/2) entries are lowpass ('a'), the other
floor(n/2) highpass ('d'); a length-1 axis stays lowpass (docs/CONVENTIONS.md
sections 3 and 4).  Band keys have one letter per axis, the first letter for
the first of the last naxes axes.  BAND_KEYS is the order of a level's detail
bands everywhere in liftwave.torch: pywt's (cH, cV, cD) = (da, ad, dd) in 2-D
(pytorch_wavelets' order too), pywt.wavedecn's sorted keys in 3-D.
"""
BAND_KEYS = {1: ("d",), 2: ("da", "ad", "dd"),
             3: ("aad", "ada", "add", "daa", "dad", "dda", "ddd")}


def lowpass_lengths(sizes, levels):
    """lens[j]: the lowpass lengths per axis after j levels (lens[0] = sizes)."""
    lens = [tuple(sizes)]
    for _ in range(levels):
        lens.append(tuple((n + 1) // 2 for n in lens[-1]))
    return lens


def band_shape(low, high, key):
    return tuple(high[i] if c == "d" else low[i] for i, c in enumerate(key))


def full_sizes(approx_sizes, level_highs):
    """The transformed sizes of the array from the approximation's and each
    level's highpass sizes (coarsest level first)."""
    low = tuple(approx_sizes)
    for high in level_highs:
        low = tuple(a + b for a, b in zip(low, high))
    return low


def check_level(low, high, mode, level, func):
    """ValueError unless some transform of this mode gives `low` lowpass and
    `high` highpass coefficients along each axis."""
    naxes = len(low)
    for i in range(naxes):
        if not (high[i] <= low[i] <= high[i] + 1) or (mode == "periodic" and low[i] != high[i]):
            raise ValueError("liftwave.torch.%s: at level %d, axis %d has %d lowpass and %d highpass "
                             "coefficients, which no %s-mode transform gives (lowpass = highpass%s)" % (
                                 func, level, i - naxes, low[i], high[i], mode,
                                 "" if mode == "periodic" else " or highpass + 1"))
