// Package tcontract contracts dense strided tensors,
// C = alpha·A·B + beta·C, with the labels of an einsum-style spec deciding
// what is summed, and runs plain GEMM as the rank-2 case. The operands are
// never transposed in memory: labels are grouped into batch, row, column and
// contracted groups, and packing reads the operands through block-scatter
// vectors into panels that generated assembly micro-kernels consume.
package tcontract
