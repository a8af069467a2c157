// libFuzzer harness for what a student's phone sends (POST /api/answer): any bytes are either refused with one
// sentence, or read into a request whose answer, read against a question of every field kind, is refused with
// one sentence or comes back canonical -- and reading the canonical answer again gives it unchanged. No
// exception, crash, hang or sanitizer report on the way.
#include "features/poll/poll_request.h"
#include "poll/poll_question.h"
#include "tensor/error.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

[[noreturn]] void fail(const char* why, const std::string& detail = {})
{
    std::fprintf(stderr, "fuzz_poll_answer: %s %s\n", why, detail.substr(0, 300).c_str());
    std::abort();
}

void oneSentence(const std::string& s)
{
    // As the session reader's harness judges it: a sentence, short, on one line (a quoted value may hold ". ").
    if (s.empty() || s.back() != '.' || s.size() > 600 || s.find('\n') != std::string::npos)
        fail("not one sentence:", s);
}

// A size (with names), a yes/no, a choice and a 4×4 grid of cells: every kind the page draws.
const poll::Question& everyKind()
{
    static const poll::Question q = [] {
        poll::Question out = poll::from_choices("Which?", {"a", "b", "c"}, 1);
        poll::Field size{"axis-0", "axis 0", poll::FieldKind::Size, {}, {{"num_heads", 2}, {"head_dim", 3}}, 0, "2",
                         {},       ""};
        poll::Field yes{"contiguous", "Contiguous?", poll::FieldKind::YesNo, {}, {}, 0, "no", {}, ""};
        poll::Field cells{"hidden", "Hidden", poll::FieldKind::Cells, {}, {}, 4, "0-1,0-2", {}, ""};
        out.fields.push_back(size);
        out.fields.push_back(yes);
        out.fields.push_back(cells);
        return out;
    }();
    return q;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    QString error;
    const auto request = readAnswerRequest(bytes, &error);
    if (!request) {
        oneSentence(error.toStdString());
        return 0;
    }
    if (!isDeviceId(request->device) || request->round < 1 || request->round > 99)
        fail("read a request outside its bounds");
    try {
        const poll::Answer canonical = poll::read_answer(everyKind(), request->values);
        if (poll::read_answer(everyKind(), canonical) != canonical)
            fail("a canonical answer reads differently");
        for (const poll::Field& f : everyKind().fields)
            (void)poll::is_right(f, canonical.at(f.name));
    } catch (const Error& e) {
        oneSentence(e.what());
    }
    return 0;
}
