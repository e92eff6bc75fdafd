// The enqueue, dequeue and wakeup flags the modelled call sequences pass
// (kernel/sched/sched.h). Only their names matter here, not the kernel's bit values.
#pragma once

namespace eevdf::model {

inline constexpr unsigned DEQUEUE_SLEEP = 1u << 0;
inline constexpr unsigned DEQUEUE_SAVE = 1u << 1;  // same bit as ENQUEUE_RESTORE
inline constexpr unsigned DEQUEUE_MOVE = 1u << 2;
inline constexpr unsigned DEQUEUE_SPECIAL = 1u << 3;
inline constexpr unsigned DEQUEUE_DELAYED = 1u << 4;
// Not a kernel flag: marks the SAVE dequeue of set_user_nice, the one place the
// injection reweight_unclamped_lag (docs/INJECTIONS.md) changes.
inline constexpr unsigned DEQUEUE_MODEL_RENICE = 1u << 8;

inline constexpr unsigned ENQUEUE_WAKEUP = 1u << 0;
inline constexpr unsigned ENQUEUE_RESTORE = 1u << 1;
inline constexpr unsigned ENQUEUE_MIGRATED = 1u << 5;
inline constexpr unsigned ENQUEUE_INITIAL = 1u << 6;
inline constexpr unsigned ENQUEUE_DELAYED = 1u << 7;

inline constexpr unsigned WF_TTWU = 1u << 0;
inline constexpr unsigned WF_FORK = 1u << 1;
inline constexpr unsigned WF_MIGRATED = 1u << 2;

}  // namespace eevdf::model
