#pragma once
// The one place the engine names its Eigen types. Row-major everywhere, so a tensor's buffer maps
// onto a matrix without a copy and strides mean what they mean in PyTorch.
#include <Eigen/Core>

namespace attnlab {

using MatrixRM = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using VectorF = Eigen::Matrix<float, Eigen::Dynamic, 1>;
using RowVectorF = Eigen::Matrix<float, 1, Eigen::Dynamic>;
using MapMatrix = Eigen::Map<MatrixRM, Eigen::Unaligned, Eigen::OuterStride<>>;
using ConstMapMatrix = Eigen::Map<const MatrixRM, Eigen::Unaligned, Eigen::OuterStride<>>;

} // namespace attnlab
