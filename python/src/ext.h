/* Shared declarations of the liftwave._liftwave extension (nanobind). */
#pragma once
#include <nanobind/nanobind.h>

#include "liftwave.h"

namespace nb = nanobind;

/* Raise the Python exception for a failed liftwave call: ValueError for bad
 * arguments, shapes, levels and integer overflow, MemoryError for host or
 * device allocation failures, RuntimeError for the rest; the text is
 * lw_last_error() (the library's own one-line message). */
[[noreturn]] void lwpy_raise(lw_status st);

/* Raise `exc` (a Python exception type) with a message. */
[[noreturn]] void lwpy_fail(PyObject *exc, const char *fmt, ...);

/* Registers the Plan class (ext_plan.cpp). */
void lwpy_bind_plan(nb::module_ &m);
