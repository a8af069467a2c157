#pragma once
// How the class answered one question, round by round: each device's latest answer counts once (a student may
// change it until the teacher closes the round), and per field the values given, how many gave each and
// whether it is right. "Vote again" opens the next round and keeps the earlier ones beside it.
#include "poll/poll_question.h"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace attnlab::poll {

struct ValueCount {
    std::string value; // canonical ("num_heads", "64", "yes", "2")
    int count = 0;
    bool right = false;
};

class Tally {
public:
    static constexpr std::size_t kMostDevices = 1000; // a lecture hall; more is refused, not grown into

    explicit Tally(Question question);

    const Question& question() const { return question_; }
    int round() const { return static_cast<int>(rounds_.size()); } // 1 for the first
    void next_round();                                             // Vote again

    // Reads `raw` against the question (read_answer) and counts it for `device` in the current round, in
    // place of that device's earlier answer there. Throws Error with one sentence, counting nothing, for an
    // answer that does not read, a round that is not the current one, or a device over kMostDevices.
    // Returns the canonical answer.
    Answer record(const std::string& device, int round, const Answer& raw);

    std::size_t answered(int round) const;
    bool has(int round, const std::string& device) const; // whether `device` answered in `round`
    // The values given for `field` in `round`, most often given first, then the right one, then by value.
    std::vector<ValueCount> distribution(int round, const std::string& field) const;
    // The share of devices in `round` whose every field is right.
    double right_share(int round) const;
    // The common wrong answers of `field` in `round`, each in the app's words, most often given first:
    // "5 said num_heads (12) where axis 1 is num_tokens (16)".
    std::vector<std::string> wrong_said(int round, const std::string& field, std::size_t most = 3) const;

    // Each device's latest canonical answer in `round` (throws Error for a round not opened).
    const std::map<std::string, Answer>& answers(int round) const;

private:
    const Field& field(const std::string& name) const;

    Question question_;
    std::vector<std::map<std::string, Answer>> rounds_; // per round: device -> its latest canonical answer
};

} // namespace attnlab::poll
