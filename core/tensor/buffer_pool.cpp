#include "tensor/buffer_pool.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#include <sys/mman.h>

namespace attnlab {

namespace {

constexpr std::size_t kLarge = std::size_t{1} << 20;     // below this, plain new[]
constexpr std::size_t kAlign = std::size_t{2} << 20;     // one transparent huge page
constexpr std::size_t kPoolCap = std::size_t{768} << 20; // never keep more than this idle

struct Pool {
    std::mutex mutex;
    std::multimap<std::size_t, void*> free_blocks; // bytes -> block
    std::size_t bytes = 0;

    ~Pool()
    {
        for (auto& [size, block] : free_blocks)
            std::free(block);
    }
};

Pool& pool()
{
    static Pool instance;
    return instance;
}

void give_back(void* block, std::size_t bytes)
{
    Pool& p = pool();
    {
        std::lock_guard lock(p.mutex);
        if (p.bytes + bytes <= kPoolCap) {
            p.free_blocks.emplace(bytes, block);
            p.bytes += bytes;
            return;
        }
    }
    std::free(block);
}

} // namespace

std::shared_ptr<float[]> allocate_floats(std::size_t count)
{
    const std::size_t wanted = std::max<std::size_t>(count, 1) * sizeof(float);
    if (wanted < kLarge)
        return std::shared_ptr<float[]>(new float[std::max<std::size_t>(count, 1)]);
    const std::size_t bytes = (wanted + kAlign - 1) / kAlign * kAlign;
    void* block = nullptr;
    {
        Pool& p = pool();
        std::lock_guard lock(p.mutex);
        if (auto it = p.free_blocks.find(bytes); it != p.free_blocks.end()) {
            block = it->second;
            p.bytes -= bytes;
            p.free_blocks.erase(it);
        }
    }
    if (!block) {
        block = std::aligned_alloc(kAlign, bytes);
        if (!block)
            throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
        madvise(block, bytes, MADV_HUGEPAGE); // advice only: without huge pages it still works
#endif
    }
    return std::shared_ptr<float[]>(static_cast<float*>(block), [bytes](float* ptr) { give_back(ptr, bytes); });
}

std::size_t pooled_bytes()
{
    std::lock_guard lock(pool().mutex);
    return pool().bytes;
}

void release_pooled_buffers()
{
    Pool& p = pool();
    std::lock_guard lock(p.mutex);
    for (auto& [size, block] : p.free_blocks)
        std::free(block);
    p.free_blocks.clear();
    p.bytes = 0;
}

} // namespace attnlab
