"""ctypes mirrors of the public structs of include/liftwave.h, for the bench
scripts that load libliftwave directly.  Field for field: the library writes
every field (lw_config_init, lw_cuda_bench), so a missing one is a write past
the Python-side struct."""
import ctypes


class LwConfig(ctypes.Structure):
    _fields_ = [("rank", ctypes.c_int), ("shape", ctypes.c_int64 * 4), ("naxes", ctypes.c_int),
                ("axes", ctypes.c_int * 3), ("dtype", ctypes.c_int), ("wavelet", ctypes.c_int),
                ("mode", ctypes.c_int), ("layout", ctypes.c_int), ("levels", ctypes.c_int),
                ("direction", ctypes.c_int), ("integer", ctypes.c_int), ("backend", ctypes.c_int),
                ("flags", ctypes.c_uint), ("scheme", ctypes.c_char_p), ("threads", ctypes.c_int),
                ("tuning", ctypes.c_char_p), ("gain", ctypes.c_double * 2),
                ("device_memory_limit", ctypes.c_uint64)]


class LwBenchResult(ctypes.Structure):
    _fields_ = [("median_s", ctypes.c_double), ("min_s", ctypes.c_double), ("runs", ctypes.c_int),
                ("bound", ctypes.c_char_p), ("bound_gbps", ctypes.c_double), ("verified", ctypes.c_int),
                ("max_rel_err", ctypes.c_double), ("device", ctypes.c_char * 128),
                ("device_extra_bytes", ctypes.c_size_t), ("register_s", ctypes.c_double),
                ("engine", ctypes.c_char * 48)]
