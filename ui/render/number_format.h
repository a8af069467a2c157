#pragma once
// How the comparison and trade-off views print numbers: parameter counts in full with thousands
// separators (they are read, not parsed), large operation counts and byte sizes in short form.
#include <QString>

#include <cstdint>

namespace attnlab::ui {

QString groupedCount(std::int64_t n); // 2360064 -> "2,360,064"
QString shortCount(double n);         // 28311552 -> "28.3 M"
QString shortBytes(double bytes);     // 50331648 -> "48.0 MiB"; a double, since b*H*T*T can pass 2^64

} // namespace attnlab::ui
