/* liftwave._liftwave: the module, the error mapping and the plan-free helpers
 * of include/liftwave.h.  The Plan class is in ext_plan.cpp; everything
 * array-library specific (NumPy, CuPy, PyTorch) is Python, in python/liftwave/. */
#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "ext.h"

void lwpy_fail(PyObject *exc, const char *fmt, ...)
{
    char buf[768];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    PyErr_SetString(exc, buf);
    throw nb::python_error();
}

void lwpy_raise(lw_status st)
{
    const char *msg = lw_last_error();
    if (!msg || !*msg) msg = lw_status_string(st);
    PyObject *exc = PyExc_RuntimeError;
    switch (st) {
    case LW_ERR_INVALID_ARGUMENT:
    case LW_ERR_INVALID_SHAPE:
    case LW_ERR_INVALID_LEVELS:
    case LW_ERR_ODD_PERIODIC:
    case LW_ERR_UNSUPPORTED:
    case LW_ERR_INTEGER_OVERFLOW: exc = PyExc_ValueError; break;
    case LW_ERR_OUT_OF_MEMORY:
    case LW_ERR_DEVICE_OUT_OF_MEMORY: exc = PyExc_MemoryError; break;
    default: break; /* no backend, CUDA, internal */
    }
    lwpy_fail(exc, "%s (%s)", msg, lw_status_string(st));
}

/* lw_max_levels over `shape` along `axes` (empty: every axis). */
static int max_levels(const std::vector<int64_t> &shape, const std::vector<int> &axes)
{
    if (shape.empty() || shape.size() > LW_MAX_RANK) lwpy_fail(PyExc_ValueError, "rank %zu is not in 1..%d", shape.size(), LW_MAX_RANK);
    if (axes.size() > LW_MAX_AXES) lwpy_fail(PyExc_ValueError, "%zu axes: at most %d", axes.size(), LW_MAX_AXES);
    int levels = 0;
    lw_status st = lw_max_levels((int)shape.size(), shape.data(), (int)axes.size(), axes.empty() ? nullptr : axes.data(), &levels);
    if (st != LW_OK) lwpy_raise(st);
    return levels;
}

static bool backend_available(const std::string &name)
{
    lw_backend b;
    if (lw_backend_parse(name.c_str(), &b) != LW_OK) lwpy_fail(PyExc_ValueError, "unknown backend '%s'", name.c_str());
    return lw_backend_available(b) != 0;
}

/* The names the library accepts, in enum order (for error messages and docs). */
static std::vector<std::string> wavelet_names()
{
    std::vector<std::string> v;
    for (int w = 0; w < LW_WAVELET_COUNT; w++) v.push_back(lw_wavelet_name((lw_wavelet)w));
    return v;
}

static std::string cuda_devices()
{
    char buf[4096];
    lw_cuda_device_info(buf, sizeof buf);
    return buf;
}

NB_MODULE(_liftwave, m)
{
    m.doc() = "liftwave C library bindings (use the liftwave package, not this module)";
    m.attr("LEVELS_MAX") = LW_LEVELS_MAX;
    m.attr("MAX_RANK") = LW_MAX_RANK;
    m.attr("MAX_AXES") = LW_MAX_AXES;
#ifdef LW_HAVE_CUDA
    m.attr("BUILT_WITH_CUDA") = true;
#else
    m.attr("BUILT_WITH_CUDA") = false;
#endif
    m.def("version", []() { return std::string(lw_version()); });
    m.def("max_levels", &max_levels, nb::arg("shape"), nb::arg("axes"));
    m.def("lowpass_length", [](int64_t n, int level) { return lw_lowpass_length(n, level); });
    m.def("backend_available", &backend_available);
    m.def("wavelet_names", &wavelet_names);
    m.def("cuda_devices", &cuda_devices);
    lwpy_bind_plan(m);
}
