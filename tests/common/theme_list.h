#pragma once
// Every theme the View menu offers, and the export's print style: what the contrast tests check in turn.
#include "render/render_style.h"
#include "shell/presentation.h"

#include <QPalette>

#include <functional>
#include <vector>

namespace testing {

struct NamedTheme {
    const char* name;
    std::function<QPalette()> palette;
};

inline const std::vector<NamedTheme>& themes()
{
    using attnlab::ui::PresentationMode;
    using attnlab::ui::Theme;
    static const std::vector<NamedTheme> list = {
        {"light", [] { return PresentationMode::palette(Theme::Light, false); }},
        {"dark", [] { return PresentationMode::palette(Theme::Dark, false); }},
        {"high contrast (light)", [] { return PresentationMode::palette(Theme::Light, true); }},
        {"high contrast (dark)", [] { return PresentationMode::palette(Theme::Dark, true); }},
        {"system", [] { return PresentationMode::palette(Theme::System, false); }},
        {"print", [] { return attnlab::ui::RenderStyle::printPalette(); }},
    };
    return list;
}

} // namespace testing
