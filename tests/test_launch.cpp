// The launch layer on the machine's device (pocl's CPU in CI): a plan's launches enqueued in
// order with events only where they are read (enqueueLaunches), and timed with the helpers' own
// spans from runs of their own (timeKernels).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "opencl/device.hpp"
#include "opencl/opencl.hpp"
#include "run/launch.hpp"

namespace {

// double_plus_one: x = 2 x + 1 on one value, so that three steps in order give 7 and any other
// order or a step left out another number; count: how many times it ran.
const char* kSource = R"(
__kernel void double_plus_one(__global float* x) { x[0] = 2.0f * x[0] + 1.0f; }
__kernel void count(__global int* n) { n[0] += 1; }
)";

struct Device {
  clgemm::SelectedDevice selected = clgemm::selectDevice(std::nullopt, std::nullopt);
  cl::Context context{selected.device};
  cl::Program program{context, kSource};
  Device() { program.build({selected.device}); }
  cl::CommandQueue queue(cl_command_queue_properties properties) const {
    return cl::CommandQueue(context, selected.device, properties);
  }
};

clgemm::Launch launchOf(const cl::Program& program, const char* name, const cl::Buffer& arg,
                        bool helper) {
  cl::Kernel kernel(program, name);
  kernel.setArg(0, arg);
  return clgemm::Launch{kernel, clgemm::LaunchShape{{1, 1}, {1, 1}, "test"}, helper};
}

float stepsOn(cl::CommandQueue& queue, const Device& d, int launches,
              std::vector<cl::Event>* events) {
  const float zero = 0.0f;
  cl::Buffer x(d.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(float),
               const_cast<float*>(&zero));
  std::vector<clgemm::Launch> plan;
  for (int i = 0; i < launches; ++i)
    plan.push_back(launchOf(d.program, "double_plus_one", x, i > 0));
  const auto [first, last] = clgemm::enqueueLaunches(queue, plan, nullptr, events);
  last.wait();
  EXPECT_EQ(first.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>(), CL_COMPLETE);
  float out = 0.0f;
  queue.enqueueReadBuffer(x, CL_TRUE, 0, sizeof out, &out);
  return out;
}

TEST(EnqueueLaunches, InOrderReturnsTheFirstAndLastEventsAndEveryOneWhenAsked) {
  const Device d;
  cl::CommandQueue queue = d.queue(0);
  EXPECT_FLOAT_EQ(stepsOn(queue, d, 3, nullptr), 7.0f);
  std::vector<cl::Event> events;
  EXPECT_FLOAT_EQ(stepsOn(queue, d, 3, &events), 7.0f);
  ASSERT_EQ(events.size(), 3u);
  for (const cl::Event& e : events) EXPECT_NE(e(), nullptr);
  EXPECT_FLOAT_EQ(stepsOn(queue, d, 1, nullptr), 1.0f);  // one launch: first and last the same
}

// Each launch waits on the one before (pocl runs such a queue in order anyway, so there this checks
// the chained wait lists' path, not the reordering it guards against).
TEST(EnqueueLaunches, OutOfOrderQueueStillRunsEachAfterTheOneBefore) {
  const Device d;
  const auto supported = d.selected.device.getInfo<CL_DEVICE_QUEUE_PROPERTIES>();
  if (!(supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
    GTEST_SKIP() << "the device takes no out-of-order queue";
  cl::CommandQueue queue = d.queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  for (int round = 0; round < 5; ++round) EXPECT_FLOAT_EQ(stepsOn(queue, d, 3, nullptr), 7.0f);
}

// The timed runs and the helpers' runs each run the whole plan: warmup + reps of them, and reps
// more where a launch is a helper.
TEST(TimeKernels, RunsThePlanAndAgainForTheHelpersSpans) {
  const Device d;
  cl::CommandQueue queue = d.queue(CL_QUEUE_PROFILING_ENABLE);
  const int zero = 0;
  cl::Buffer n(d.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(int),
               const_cast<int*>(&zero));
  const auto runs = [&](bool helper) {
    queue.enqueueWriteBuffer(n, CL_TRUE, 0, sizeof zero, &zero);
    const std::vector<clgemm::Launch> plan = {launchOf(d.program, "count", n, helper),
                                              launchOf(d.program, "count", n, false)};
    int prepared = 0;
    const clgemm::Timings t = clgemm::timeKernels(queue, plan, 2, 5, [&] { ++prepared; });
    int counted = 0;
    queue.enqueueReadBuffer(n, CL_TRUE, 0, sizeof counted, &counted);
    EXPECT_EQ(t.ms.size(), 5u);
    for (double ms : t.ms) EXPECT_GE(ms, 0.0);
    EXPECT_EQ(counted, 2 * prepared);  // both launches of every run
    return std::make_pair(prepared, t);
  };
  const auto [plain_runs, plain] = runs(false);
  EXPECT_EQ(plain_runs, 7);
  EXPECT_TRUE(plain.helper_ms.empty());
  const auto [helper_runs, with_helper] = runs(true);
  EXPECT_EQ(helper_runs, 12);
  ASSERT_EQ(with_helper.helper_ms.size(), 5u);
  for (double ms : with_helper.helper_ms) EXPECT_GE(ms, 0.0);
}

}  // namespace
