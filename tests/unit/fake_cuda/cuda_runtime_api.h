/* A stand-in for the CUDA runtime's header, for tests that run CUDA-backend
 * host code on the CPU (test_stager.c): the types and the few calls the
 * stager makes, implemented by the test on an emulated device (streams are
 * threads that run their copies in order, events complete when their stream
 * reaches them).  Never used by the library itself. */
#ifndef LW_FAKE_CUDA_RUNTIME_API_H
#define LW_FAKE_CUDA_RUNTIME_API_H

#include <stddef.h>

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorLaunchFailure = 719,
    cudaErrorNotReady = 600,
} cudaError_t;

typedef struct fake_stream *cudaStream_t;
typedef struct fake_event *cudaEvent_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};

struct cudaPitchedPtr {
    void *ptr;
    size_t pitch, xsize, ysize;
};
struct cudaExtent {
    size_t width, height, depth;
};
struct cudaPos {
    size_t x, y, z;
};
struct cudaMemcpy3DParms {
    void *srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    void *dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    struct cudaExtent extent;
    enum cudaMemcpyKind kind;
};

#define cudaEventDefault 0x0
#define cudaEventBlockingSync 0x1
#define cudaEventDisableTiming 0x2

#ifdef __cplusplus
extern "C" {
#endif
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind, cudaStream_t st);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                              enum cudaMemcpyKind kind, cudaStream_t st);
cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t st);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *ev, unsigned flags);
cudaError_t cudaEventCreate(cudaEvent_t *ev);
cudaError_t cudaEventDestroy(cudaEvent_t ev);
cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t st);
cudaError_t cudaEventQuery(cudaEvent_t ev);
cudaError_t cudaEventSynchronize(cudaEvent_t ev);
cudaError_t cudaMallocHost(void **p, size_t n);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaGetDevice(int *d);
cudaError_t cudaSetDevice(int d);
cudaError_t cudaGetLastError(void);
const char *cudaGetErrorString(cudaError_t e);
#ifdef __cplusplus
}
#endif

#endif
