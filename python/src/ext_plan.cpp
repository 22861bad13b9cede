/* liftwave._liftwave.Plan: one lw_plan and the checks that make lw_execute
 * safe to call from Python (shape, dtype, contiguity, device, stream).
 *
 * Arrays arrive as nb::ndarray (DLPack or the buffer protocol: NumPy, CuPy,
 * PyTorch), so no copy is made here; the Python layer has already copied
 * non-contiguous input and converted dtypes as documented.  With device
 * pointers the transform is queued on the caller's stream: lw_set_stream
 * changes the plan, so the switch and the enqueue happen under the plan's
 * mutex, and a switch makes the new stream wait for the work already queued
 * on the old one (the plan's device scratch is shared by its calls). */
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#ifdef LW_HAVE_CUDA
#include <cuda_runtime.h>
#endif

#include "ext.h"

namespace {

/* DLPack device types (dlpack.h) */
constexpr int DL_CPU = 1, DL_CUDA = 2, DL_CUDA_HOST = 3, DL_CUDA_MANAGED = 13;

/* Makes `device` current for the life of the guard and restores the caller's
 * device after (cuda_execute and plan creation switch devices). */
struct DeviceGuard {
#ifdef LW_HAVE_CUDA
    int prev = -1;
    explicit DeviceGuard(int device)
    {
        if (device >= 0 && cudaGetDevice(&prev) == cudaSuccess && prev != device) cudaSetDevice(device);
        else prev = -1;
    }
    ~DeviceGuard()
    {
        if (prev >= 0) cudaSetDevice(prev);
    }
#else
    explicit DeviceGuard(int) {}
#endif
};

nb::dlpack::dtype dl_dtype(lw_dtype t)
{
    switch (t) {
    case LW_FLOAT64: return nb::dtype<double>();
    case LW_INT32: return nb::dtype<int32_t>();
    case LW_FLOAT16: return nb::dlpack::dtype{(uint8_t)nb::dlpack::dtype_code::Float, 16, 1};
    case LW_BFLOAT16: return nb::dlpack::dtype{(uint8_t)nb::dlpack::dtype_code::Bfloat, 16, 1};
    default: return nb::dtype<float>();
    }
}

template <typename Enum>
Enum parse_name(lw_status (*parse)(const char *, Enum *), const std::string &name, const char *what)
{
    Enum e;
    if (parse(name.c_str(), &e) != LW_OK) lwpy_fail(PyExc_ValueError, "unknown %s '%s'", what, name.c_str());
    return e;
}

lw_dtype parse_dtype(const std::string &name)
{
    for (int t = LW_FLOAT32; t <= LW_BFLOAT16; t++)
        if (name == lw_dtype_name((lw_dtype)t)) return (lw_dtype)t;
    lwpy_fail(PyExc_TypeError, "dtype %s is not supported (float32, float64, int32, float16, bfloat16)", name.c_str());
}

class Plan {
public:
    Plan(const std::vector<int64_t> &shape, const std::vector<int> &axes, const std::string &dtype,
         const std::string &wavelet, const std::string &mode, const std::string &layout, int levels, int direction,
         bool integer, const std::string &backend, bool device_pointers, int device, bool destroy_input,
         const std::string &scheme, int threads, double gain_low, double gain_high, bool in_place,
         uint64_t device_memory_limit, int placement, const std::string &tuning)
    {
        /* placement: 0 both operands on one side (device_pointers says which), 1 the input on the
         * device and the output in host memory (G->C), 2 the reverse (C->G) */
        if (placement < 0 || placement > 2 || (placement && device_pointers))
            lwpy_fail(PyExc_ValueError, "placement must be 0, or 1 / 2 on a plan for host pointers");
        if (shape.empty() || shape.size() > LW_MAX_RANK)
            lwpy_fail(PyExc_ValueError, "rank %zu is not supported (1..%d after merging batch axes)", shape.size(), LW_MAX_RANK);
        if (axes.size() > LW_MAX_AXES) lwpy_fail(PyExc_ValueError, "%zu axes: a plan transforms at most %d", axes.size(), LW_MAX_AXES);
        lw_config c;
        lw_config_init(&c);
        c.rank = (int)shape.size();
        for (size_t i = 0; i < shape.size(); i++) c.shape[i] = shape[i];
        c.naxes = (int)axes.size();
        for (size_t i = 0; i < axes.size(); i++) c.axes[i] = axes[i];
        c.dtype = parse_dtype(dtype);
        c.wavelet = parse_name(lw_wavelet_parse, wavelet, "wavelet");
        c.mode = parse_name(lw_mode_parse, mode, "mode");
        c.layout = parse_name(lw_layout_parse, layout, "layout");
        c.backend = parse_name(lw_backend_parse, backend, "backend");
        c.levels = levels;
        c.direction = (lw_direction)direction; /* lw_direction; the library validates it */
        c.integer = integer;
        c.flags = (device_pointers ? LW_FLAG_DEVICE_POINTERS : 0u) | (destroy_input ? LW_FLAG_DESTROY_INPUT : 0u) |
                  (in_place ? LW_FLAG_IN_PLACE : 0u) | (placement == 1 ? LW_FLAG_DEVICE_INPUT : 0u) |
                  (placement == 2 ? LW_FLAG_DEVICE_OUTPUT : 0u);
        c.scheme = scheme.empty() ? nullptr : scheme.c_str();
        c.tuning = tuning.empty() ? nullptr : tuning.c_str();
        c.threads = threads;
        c.gain[0] = gain_low;
        c.gain[1] = gain_high;
        c.device_memory_limit = device_memory_limit;
        device_ = device;
        device_pointers_ = device_pointers;
        placement_ = placement;
        lw_status st;
        {
            DeviceGuard g(device);
            nb::gil_scoped_release nogil;
            st = lw_plan_create(&p_, &c);
        }
        if (st != LW_OK) lwpy_raise(st);
        cuda_ = std::string(lw_plan_backend_name(p_)) == "cuda";
#ifdef LW_HAVE_CUDA
        /* a CUDA plan for host arrays runs on the device current at its
         * creation; remember it so that execute can restore the caller's */
        if (cuda_ && device_ < 0 && cudaGetDevice(&device_) != cudaSuccess) device_ = -1;
#endif
        const lw_config *pc = lw_plan_config(p_);
        shape_.assign(pc->shape, pc->shape + pc->rank);
        dtype_ = dl_dtype(pc->dtype);
    }

    ~Plan()
    {
#ifdef LW_HAVE_CUDA
        if (event_) cudaEventDestroy(event_);
#endif
        lw_destroy(p_);
    }

    Plan(const Plan &) = delete;
    Plan &operator=(const Plan &) = delete;

    /* Run on `in` into `out` (may be the same array).  `stream` is a
     * cudaStream_t as an integer (0: the legacy default stream); only used
     * with device pointers. */
    void execute(nb::ndarray<nb::ro> in, nb::ndarray<> out, uintptr_t stream)
    {
        check(in, "input", device_pointers_ || placement_ == 1);
        check(out, "output", device_pointers_ || placement_ == 2);
        const void *src = in.data();
        void *dst = out.data();
        /* the library takes the same buffer (in place) or two apart, never a partial overlap */
        const char *a = (const char *)src, *b = (const char *)dst;
        if (a != b && a < b + out.nbytes() && b < a + in.nbytes())
            lwpy_fail(PyExc_ValueError, "out overlaps the input without being it: pass out=x for in place, or a "
                                        "separate array");
        run(stream, [&] { return lw_execute(p_, src, dst); }, src, dst);
    }

    /* execute on raw addresses, for callers that checked shape, dtype,
     * contiguity and device once and cache that (liftwave.pywt's repeated
     * calls on GPU tensors: the DLPack import of two operands costs more
     * than the launch) */
    void execute_ptr(uintptr_t in, uintptr_t out, uintptr_t stream)
    {
        if (!in || !out) lwpy_fail(PyExc_ValueError, "NULL data pointer");
        run(stream, [&] { return lw_execute(p_, (const void *)in, (void *)out); }, (const void *)in, (void *)out);
    }

    /* lw_execute_bands on raw addresses: the samples array and, per library
     * band (lw_band_count of them, in its order), a data pointer and element
     * strides (one per axis of the plan); for callers that checked shapes,
     * dtypes and devices (liftwave.torch's layers) */
    void execute_bands_ptr(uintptr_t samples, const std::vector<uintptr_t> &ptrs,
                           const std::vector<std::vector<int64_t>> &strides, uintptr_t stream)
    {
        const int n = lw_band_count(p_), rank = lw_plan_config(p_)->rank;
        if (!samples) lwpy_fail(PyExc_ValueError, "NULL data pointer");
        if (placement_) lwpy_fail(PyExc_ValueError, "bands: not with one side on the device (placement)");
        if ((int)ptrs.size() != n || (int)strides.size() != n)
            lwpy_fail(PyExc_ValueError, "bands: the plan has %d bands, got %zu pointers and %zu stride lists", n,
                      ptrs.size(), strides.size());
        std::vector<lw_band> bands((size_t)n);
        for (int i = 0; i < n; i++) {
            if ((int)strides[i].size() != rank)
                lwpy_fail(PyExc_ValueError, "bands: band %d has %zu strides, the plan %d axes", i, strides[i].size(), rank);
            bands[i].data = (void *)ptrs[i];
            for (int d = 0; d < rank; d++) bands[i].strides[d] = strides[i][d];
        }
        run(stream, [&] { return lw_execute_bands(p_, (void *)samples, bands.data()); });
    }

    std::string describe() const
    {
        char buf[4096];
        if (lw_plan_describe(p_, buf, sizeof buf) != LW_OK) lwpy_fail(PyExc_RuntimeError, "%s", lw_last_error());
        return buf;
    }

    nb::dict config() const
    {
        const lw_config *c = lw_plan_config(p_);
        nb::dict d;
        std::vector<int64_t> shape(c->shape, c->shape + c->rank);
        std::vector<int> axes(c->axes, c->axes + c->naxes);
        d["shape"] = shape;
        d["axes"] = axes;
        d["dtype"] = std::string(lw_dtype_name(c->dtype));
        d["wavelet"] = std::string(lw_wavelet_name(c->wavelet));
        d["mode"] = std::string(lw_mode_name(c->mode));
        d["layout"] = std::string(lw_layout_name(c->layout));
        d["levels"] = c->levels;
        static const char *const directions[] = {"forward", "inverse", "forward-adjoint", "inverse-adjoint"};
        d["direction"] = std::string((unsigned)c->direction < 4 ? directions[c->direction] : "?");
        d["integer"] = c->integer != 0;
        d["backend"] = std::string(lw_plan_backend_name(p_));
        d["device_pointers"] = (c->flags & LW_FLAG_DEVICE_POINTERS) != 0;
        d["destroy_input"] = (c->flags & LW_FLAG_DESTROY_INPUT) != 0;
        d["in_place"] = (c->flags & LW_FLAG_IN_PLACE) != 0;
        d["device"] = device_;
        d["threads"] = c->threads;
        d["gain"] = nb::make_tuple(c->gain[0], c->gain[1]);
        d["device_memory_limit"] = (uint64_t)c->device_memory_limit;
        d["placement"] = std::string(placement_ == 1 ? "G2C" : placement_ == 2 ? "C2G" : "");
        size_t ws = 0;
        if (lw_workspace_size(p_, &ws) == LW_OK) d["workspace_bytes"] = ws;
        return d;
    }

private:
    /* Run call() (an lw_execute*) without the GIL on the plan's device: host-pointer plans
     * directly; device-pointer plans on `stream`, under the plan's mutex (the stream switch
     * and the enqueue together); one-sided plans (placement) through run_placed on src/dst.
     * Raises the library's error. */
    template <class F>
    void run(uintptr_t stream, F &&call, const void *src = nullptr, void *dst = nullptr)
    {
        lw_status st;
        const char *stream_error = nullptr;
        {
            DeviceGuard g(device_pointers_ || cuda_ ? device_ : -1);
            nb::gil_scoped_release nogil;
            if (placement_) {
                st = run_placed(src, dst, stream, &stream_error);
            } else if (!device_pointers_) {
                st = call();
            } else {
                std::lock_guard<std::mutex> lock(mu_);
                st = switch_stream(stream, &stream_error);
                if (st == LW_OK) st = call();
                if (st == LW_OK) used_ = true;
            }
        }
        if (stream_error) lwpy_fail(PyExc_RuntimeError, "ordering the CUDA streams failed: %s", stream_error);
        if (st != LW_OK) lwpy_raise(st);
    }

    /* one side on the device: the call runs on the library's own streams and returns when the
     * output is complete; a device input is first waited for on the caller's stream */
    lw_status run_placed(const void *src, void *dst, uintptr_t stream, const char **error)
    {
#ifdef LW_HAVE_CUDA
        if (placement_ == 1) {
            cudaError_t e = cudaStreamSynchronize((cudaStream_t)stream);
            if (e != cudaSuccess) {
                *error = cudaGetErrorString(e);
                return LW_ERR_CUDA;
            }
        }
#else
        (void)stream, (void)error;
#endif
        return lw_execute(p_, src, dst);
    }

    /* shape, dtype, C-contiguity and device of one operand (on_device: in CUDA device memory) */
    template <typename A>
    void check(const A &a, const char *what, bool on_device) const
    {
        size_t ndim = a.ndim();
        if (ndim != shape_.size()) lwpy_fail(PyExc_ValueError, "%s has %zu axes, the plan %zu", what, ndim, shape_.size());
        int64_t expect = 1;
        for (size_t i = ndim; i-- > 0;) {
            if (a.shape(i) != shape_[i])
                lwpy_fail(PyExc_ValueError, "%s axis %zu has length %lld, the plan %lld", what, i, (long long)a.shape(i),
                          (long long)shape_[i]);
            if (a.shape(i) != 1 && a.stride(i) != expect)
                lwpy_fail(PyExc_ValueError, "%s is not C-contiguous", what);
            expect *= shape_[i];
        }
        if (a.dtype() != dtype_) lwpy_fail(PyExc_TypeError, "%s dtype does not match the plan's", what);
        int dt = a.device_type();
        if (on_device) {
            if (dt != DL_CUDA && dt != DL_CUDA_MANAGED)
                lwpy_fail(PyExc_ValueError, "%s is not in CUDA device memory but the plan takes it there", what);
            if (a.device_id() != device_)
                lwpy_fail(PyExc_ValueError, "%s is on CUDA device %d, the plan on device %d", what, a.device_id(), device_);
        } else if (dt != DL_CPU && dt != DL_CUDA_HOST) {
            lwpy_fail(PyExc_ValueError, "%s is not in host memory but the plan takes it there", what);
        }
    }

    /* lw_set_stream to `stream`; the new stream first waits for what the plan
     * queued on the old one (called under mu_).  Not while `stream` is being
     * captured into a CUDA graph: a captured stream may not wait on work
     * outside its capture, and the capture begins on an idle device
     * (torch.cuda.graph synchronizes first); a replay is ordered by the
     * stream it is launched on.  A CUDA failure sets *error. */
    lw_status switch_stream(uintptr_t stream, const char **error)
    {
        if (used_ && stream == stream_) return LW_OK;
#ifdef LW_HAVE_CUDA
        cudaStreamCaptureStatus cap = cudaStreamCaptureStatusNone;
        if (used_ && cudaStreamIsCapturing((cudaStream_t)stream, &cap) != cudaSuccess) {
            *error = cudaGetErrorString(cudaGetLastError());
            return LW_ERR_CUDA;
        }
        if (used_ && cap == cudaStreamCaptureStatusNone) {
            cudaError_t e = event_ ? cudaSuccess : cudaEventCreateWithFlags(&event_, cudaEventDisableTiming);
            if (e == cudaSuccess) e = cudaEventRecord(event_, (cudaStream_t)stream_);
            if (e == cudaSuccess) e = cudaStreamWaitEvent((cudaStream_t)stream, event_, 0);
            if (e != cudaSuccess) {
                *error = cudaGetErrorString(e);
                return LW_ERR_CUDA;
            }
        }
#else
        (void)error;
#endif
        stream_ = stream;
        return lw_set_stream(p_, (void *)stream);
    }

    lw_plan *p_ = nullptr;
    int device_ = -1;
    bool device_pointers_ = false, cuda_ = false, used_ = false;
    int placement_ = 0;
    std::vector<int64_t> shape_;
    nb::dlpack::dtype dtype_;
    uintptr_t stream_ = 0;
    std::mutex mu_;
#ifdef LW_HAVE_CUDA
    cudaEvent_t event_ = nullptr;
#endif
};

} // namespace

void lwpy_bind_plan(nb::module_ &m)
{
    nb::class_<Plan>(m, "Plan")
        .def(nb::init<const std::vector<int64_t> &, const std::vector<int> &, const std::string &, const std::string &,
                      const std::string &, const std::string &, int, int, bool, const std::string &, bool, int, bool,
                      const std::string &, int, double, double, bool, uint64_t, int, const std::string &>(),
             nb::arg("shape"), nb::arg("axes"), nb::arg("dtype"), nb::arg("wavelet"), nb::arg("mode"), nb::arg("layout"),
             nb::arg("levels"), nb::arg("direction"), nb::arg("integer"), nb::arg("backend"), nb::arg("device_pointers"),
             nb::arg("device"), nb::arg("destroy_input"), nb::arg("scheme"), nb::arg("threads") = 0,
             nb::arg("gain_low") = 1.0, nb::arg("gain_high") = 1.0, nb::arg("in_place") = false,
             nb::arg("device_memory_limit") = 0, nb::arg("placement") = 0, nb::arg("tuning") = "")
        .def("execute", &Plan::execute, nb::arg("input"), nb::arg("output"), nb::arg("stream") = 0)
        .def("execute_ptr", &Plan::execute_ptr, nb::arg("input"), nb::arg("output"), nb::arg("stream") = 0)
        .def("execute_bands_ptr", &Plan::execute_bands_ptr, nb::arg("samples"), nb::arg("pointers"),
             nb::arg("strides"), nb::arg("stream") = 0)
        .def("config", &Plan::config)
        .def("describe", &Plan::describe);
}
