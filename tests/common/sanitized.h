#pragma once
// ATTNLAB_SANITIZED in a sanitizer build: memory measured there counts the shadow memory and the freed blocks
// in quarantine, which are not the program's own, so checks of peak memory against a bound skip.
#if defined(__SANITIZE_ADDRESS__)
#define ATTNLAB_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define ATTNLAB_SANITIZED 1
#endif
#endif
