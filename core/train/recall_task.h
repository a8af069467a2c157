#pragma once
// The associative-recall task: a sequence of key-value pairs, then queries for some of its keys, each followed by
// its value. Keys are the vocabulary's first half (A, B, ...), values its second half; the keys of one sequence
// differ, the values are drawn freely. With context T there are T / 4 pairs, then T / 4 queries (a random order of
// the pairs' keys; positions past 4 (T / 4) hold random values, unscored). Only the query positions are scored: each
// predicts the value its key was paired with, which only attention back to that pair can find.
//   T 32, vocab 32:  k1 v1 k2 v2 ... k8 v8 | q1 a1 ... q8 a8, q_i one of k1..k8 and a_i its value; 8 scored
#include <cstdint>
#include <random>

namespace attnlab::train {

std::int64_t recall_pairs(std::int64_t context); // T / 4
// Throws Error with one sentence when the task cannot be posed: an odd vocabulary or one below 4, fewer keys
// (vocab / 2) than pairs, a context below 4.
void check_recall(std::int64_t vocab, std::int64_t context);
// One sequence of `context` ids and its targets (-100 except at the queries).
void fill_recall(std::mt19937_64& rng, std::int64_t vocab, std::int64_t context, std::int64_t* ids,
                 std::int64_t* targets);

} // namespace attnlab::train
