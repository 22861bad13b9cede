/* The element types of global memory as template arguments: one dispatch
 * from a run-time dtype code (LWK_*) for the kernel files that instantiate
 * every type.  f receives a null pointer of the storage type: the float
 * types, the half types (computed in float32, lwd_store) and int32. */
#ifndef LW_DTYPE_CT_CUH
#define LW_DTYPE_CT_CUH

#include "lw_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <type_traits>

template <class Fn> static inline cudaError_t lwd_by_dtype(int dtype, Fn &&f)
{
    switch (dtype) {
    case LWK_F32: return f((float *)nullptr);
    case LWK_F64: return f((double *)nullptr);
    case LWK_F16: return f((__half *)nullptr);
    case LWK_BF16: return f((__nv_bfloat16 *)nullptr);
    default: return f((int32_t *)nullptr);
    }
}

/* the storage type of a lwd_by_dtype argument */
#define LWD_TYPE_OF(tag) typename std::remove_pointer<decltype(tag)>::type

#endif
