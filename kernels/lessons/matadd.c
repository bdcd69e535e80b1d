// Matrix addition: the "Memory Coalescing" lesson in its own language, OpenMP
// target offload. Each function holds one of the lesson's target regions as
// written; ThreadMap maps a, b and res on the device before the call, so the
// map clauses find them there and copy nothing, and it times the region alone.
//
// What the pragma does on a GPU is the compiler's choice:
//   GCC runs each OpenMP thread as a whole warp (blocks of 8 warps); outside
//     a `simd` construct all 32 lanes run the thread's one iteration, on the
//     same words, so neither loop of the lesson ever serves two iterations
//     with one request. `simd` hands the iterations to the lanes: the *_simd
//     functions.
//   clang runs each OpenMP thread as one CUDA thread, neighbouring iterations
//     on neighbouring lanes: the column loop coalesces as the lesson says.
//
// ELEM is the element type (int, float or double), given when compiled.
#ifndef ELEM
#define ELEM int
#endif

// 2 Parallelising the outer loop: each OpenMP thread walks its own row.
void matadd_rows(const ELEM* a, const ELEM* b, ELEM* res, int width, int height) {
    #pragma omp target teams distribute parallel for map(to:a[:width*height]) map(to:b[:width*height]) map(from:res[:width*height])
    for (int i = 0; i < height; i++) {
        for (int j = 0; j < width; j++) {
            res[i*width+j] = a[i*width+j] + b[i*width+j];
        }
    }
}

// 3 Parallelising the inner loop: each OpenMP thread walks down a column.
void matadd_cols(const ELEM* a, const ELEM* b, ELEM* res, int width, int height) {
    #pragma omp target teams distribute parallel for map(to:a[:width*height]) map(to:b[:width*height]) map(from:res[:width*height])
    for (int j = 0; j < width; j++) {
        for (int i = 0; i < height; i++) {
            res[i*width+j] = a[i*width+j] + b[i*width+j];
        }
    }
}

// The column loop with its iterations shared by the lanes of a warp (`simd`):
// under GCC, the columns an OpenMP thread holds go to neighbouring lanes (as
// many lanes work as the thread holds columns, at most 32).
void matadd_cols_simd(const ELEM* a, const ELEM* b, ELEM* res, int width, int height) {
    #pragma omp target teams distribute parallel for simd map(to:a[:width*height]) map(to:b[:width*height]) map(from:res[:width*height])
    for (int j = 0; j < width; j++) {
        for (int i = 0; i < height; i++) {
            res[i*width+j] = a[i*width+j] + b[i*width+j];
        }
    }
}

// The row loop with each row's elements shared by the lanes of its warp: the
// outer loop over the OpenMP threads, the inner one over their lanes.
void matadd_rows_simd(const ELEM* a, const ELEM* b, ELEM* res, int width, int height) {
    #pragma omp target teams distribute parallel for map(to:a[:width*height]) map(to:b[:width*height]) map(from:res[:width*height])
    for (int i = 0; i < height; i++) {
        #pragma omp simd
        for (int j = 0; j < width; j++) {
            res[i*width+j] = a[i*width+j] + b[i*width+j];
        }
    }
}
