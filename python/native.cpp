// SPDX-License-Identifier: GPL-3.0-or-later
// weightspace._native: the engine's grade, parse, play and batch grader for Python. The GIL is
// released while grading; the Python layer (weightspace/__init__.py) turns the results into
// the values and exceptions verify.py produces.
#include <pybind11/eigen.h>
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <Eigen/Core>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include <weightspace/batch_grader.hpp>
#include "engine/grade.hpp"
#include "games/registry.hpp"
#include "parser/numpy/apply_edits.hpp"

namespace py = pybind11;

namespace weightspace {
namespace {

// A Python str as the UTF-8 the engine reads; lone surrogates (which a str may hold) pass as
// WTF-8, as everywhere in the parser.
std::string utf8(const py::handle& text) {
  PyObject* bytes = PyUnicode_AsEncodedString(text.ptr(), "utf-8", "surrogatepass");
  if (bytes == nullptr) throw py::error_already_set();
  std::string result(PyBytes_AS_STRING(bytes), static_cast<std::size_t>(PyBytes_GET_SIZE(bytes)));
  Py_DECREF(bytes);
  return result;
}

py::str text(const std::string& utf8_text) {
  PyObject* decoded = PyUnicode_DecodeUTF8(utf8_text.data(), static_cast<Py_ssize_t>(utf8_text.size()), "surrogatepass");
  if (decoded == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(decoded);
}

// The metadata dict of verify.grade_answer, keys in its order, with Python's types.
py::tuple reward_tuple(const Reward& reward, const py::object& game, const py::object& source,
                       const py::object& episodes) {
  py::dict metadata;
  metadata["game"] = game;
  metadata["source"] = source;
  metadata["episodes"] = episodes;
  metadata["parse_success"] = reward.parse_success ? 1.0 : 0.0;
  if (reward.parse_success) {
    metadata["raw_score"] = reward.raw_score;
    metadata["score_cap"] = reward.score_cap;
    metadata["mean_episode_length"] = reward.mean_episode_length;
    metadata["edit_count"] = reward.edit_count;
    metadata["nonzero_weights"] = reward.nonzero_weights;
  } else {
    metadata["error"] = text(reward.error ? reward.error->message : std::string());
  }
  return py::make_tuple(reward.normalized_score, metadata);
}

// Python's main thread, the only one that runs signal handlers (set when the module loads).
unsigned long main_thread_ident = 0;

// One thread, kept for the life of the process, that runs the main thread's grades: starting
// a thread per call cost 45 µs of a call's time, and its grades found no lockstep batch to
// reuse. Never joined: it waits for work, and the process may exit under it.
class Helper {
 public:
  static Helper& instance() {
    static Helper* helper = new Helper();
    return *helper;
  }
  void run(std::function<void()> job) {
    {
      const std::lock_guard lock(mutex_);
      job_ = std::move(job);
    }
    wake_.notify_one();
  }

 private:
  Helper() {
    std::thread([this] {
      while (true) {
        std::function<void()> job;
        {
          std::unique_lock lock(mutex_);
          wake_.wait(lock, [this] { return static_cast<bool>(job_); });
          job = std::move(job_);
          job_ = nullptr;
        }
        job();
      }
    }).detach();
  }
  std::mutex mutex_;
  std::condition_variable wake_;
  std::function<void()> job_;
};

// Runs `work` with the GIL released. On the main thread the work runs on the helper thread
// while this one checks for signals every 20 ms, so that Ctrl-C interrupts a long grade:
// `cancel` is set, the engine stops starting episodes, the work returns, and the
// KeyboardInterrupt propagates. Elsewhere no signal can arrive, and the work runs here.
template <class Work>
auto interruptible(std::atomic<bool>& cancel, Work&& work) -> decltype(work()) {
  if (PyThread_get_thread_ident() != main_thread_ident) {
    py::gil_scoped_release release;
    return work();
  }
  auto task = std::make_shared<std::packaged_task<decltype(work())()>>(std::forward<Work>(work));
  auto result = task->get_future();
  bool interrupted = false;
  {
    py::gil_scoped_release release;
    Helper::instance().run([task] { (*task)(); });
    // A short grade is over within microseconds; waking a thread that went to sleep on the
    // future cost about 45 µs, so look for the result a while before sleeping.
    const auto spin_until = std::chrono::steady_clock::now() + std::chrono::microseconds(200);
    while (result.wait_for(std::chrono::seconds(0)) != std::future_status::ready &&
           std::chrono::steady_clock::now() < spin_until) {
      std::this_thread::yield();
    }
    while (result.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready) {
      py::gil_scoped_acquire acquire;
      if (!interrupted && PyErr_CheckSignals() != 0) {
        interrupted = true;
        cancel = true;
      }
    }
  }
  if (interrupted) throw py::error_already_set();
  return result.get();
}

// What verify.evaluate is asked to play, run on `threads` threads and stopped by `cancel`.
GradeRequest request_of(const py::str& game, const py::str& source, const py::int_& episodes, int threads,
                        std::atomic<bool>& cancel) {
  if (threads < 0) throw py::value_error("threads must not be negative");
  GradeRequest request;
  request.game = utf8(game);
  request.source = utf8(source);
  request.episodes = episodes.cast<std::int64_t>();
  request.run.threads = threads;
  request.run.cancel = &cancel;
  return request;
}

// An answer error as (kind, message, line, column) for the Python layer to raise as the class
// verify.py raises.
[[noreturn]] void raise_answer_error(const PythonError& error) {
  const py::object answer_error = py::module_::import("weightspace._native").attr("AnswerError");
  PyErr_SetObject(answer_error.ptr(),
                  py::make_tuple(error.kind, text(error.message), error.line, error.column).ptr());
  throw py::error_already_set();
}

py::tuple grade_answer(const py::str& game, const py::str& source, const py::str& answer, const py::int_& episodes,
                       int threads) {
  std::atomic<bool> cancel{false};
  const GradeRequest request = request_of(game, source, episodes, threads, cancel);
  const std::string text_of_answer = utf8(answer);
  const Grade result = interruptible(cancel, [&] { return grade(request, text_of_answer); });
  // Past this machine's limits there is no score to return: the MemoryError the grader would
  // die with, naming the limit.
  if (result.refused) raise_answer_error(*result.reward.error);
  return reward_tuple(result.reward, game, source, episodes);
}

py::tuple apply_edits(const py::str& answer) {
  const std::string text_of_answer = utf8(answer);
  ParsedAnswer parsed;
  {
    py::gil_scoped_release release;
    parse_answer(text_of_answer, parsed);
  }
  if (!parsed.success) raise_answer_error(parsed.error->error());
  py::dict tensors;
  for (const TensorShape& shape : kTensorShapes) {
    const Tensor tensor = static_cast<Tensor>(&shape - kTensorShapes.data());
    const std::span<const float> values = parsed.weights.tensor(tensor);
    py::array_t<float> array = shape.dimensions() == 1 ? py::array_t<float>({shape.rows})
                                                       : py::array_t<float>({shape.rows, shape.columns});
    std::copy(values.begin(), values.end(), array.mutable_data());
    tensors[py::str(std::string(shape.name))] = array;
  }
  return py::make_tuple(tensors, parsed.edit_count);
}

// The weights dict verify.evaluate takes: six float32 arrays of the grader's shapes, read
// through Eigen maps (row-major, as numpy's C order).
using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
Weights weights_from(const py::dict& tensors) {
  Weights weights;
  for (const TensorShape& shape : kTensorShapes) {
    const std::string name(shape.name);
    if (!tensors.contains(name)) throw py::key_error(name);
    const py::array array = py::reinterpret_borrow<py::array>(tensors[name.c_str()]);
    if (!py::isinstance<py::array>(tensors[name.c_str()]) || !array.dtype().is(py::dtype::of<float>())) {
      throw py::type_error(name + " must be a float32 numpy array (as apply_edits makes it)");
    }
    const int columns = shape.columns == 0 ? 1 : shape.columns;
    const bool matches = shape.dimensions() == 1
                             ? array.ndim() == 1 && array.shape(0) == shape.rows
                             : array.ndim() == 2 && array.shape(0) == shape.rows && array.shape(1) == shape.columns;
    if (!matches) throw py::value_error(name + " has the wrong shape");
    const auto source = py::cast<Eigen::Ref<const RowMajor, 0, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>>(
        shape.dimensions() == 1 ? array.attr("reshape")(shape.rows, 1) : py::object(array));
    const std::span<float> target = weights.tensor(static_cast<Tensor>(&shape - kTensorShapes.data()));
    Eigen::Map<RowMajor>(target.data(), shape.rows, columns) = source;
  }
  return weights;
}

py::tuple evaluate(const py::str& game, const py::str& source, const py::dict& tensors, const py::int_& episodes,
                   int threads) {
  std::atomic<bool> cancel{false};
  const GradeRequest request = request_of(game, source, episodes, threads, cancel);
  const Weights weights = weights_from(tensors);
  std::vector<EpisodeResult> results;
  const Rollout rollout = interruptible(cancel, [&] { return play(weights, request, results); });
  if (!rollout.played) raise_answer_error(*rollout.error);
  return py::make_tuple(rollout.raw_score, rollout.mean_episode_length);
}

// A BatchGrader for grade_many: records are (id, answer_text, game, source, episodes) tuples
// from a Python iterator, results go to a Python callable; both are called with the GIL held,
// the grading itself runs without it. `cancel` (an object with is_set()) stops the run.
class PyBatchGrader {
 public:
  PyBatchGrader(int threads, std::size_t cache) {
    if (threads < 0) throw py::value_error("threads must not be negative");
    BatchOptions options;
    options.run.threads = threads;
    options.cache_entries = cache;
    grader_ = std::make_unique<BatchGrader>(options);
  }

  // Stops run() from another thread: no record starts, grades in flight stop starting episodes.
  void cancel() { cancel_ = true; }

  void run(const py::iterator& records, const py::function& sink) {
    cancel_ = false;
    py::iterator it = records;
    auto next = [&]() -> std::optional<BatchRecord> {
      py::gil_scoped_acquire acquire;
      if (cancel_ || it == py::iterator::sentinel()) return std::nullopt;
      const py::tuple item = py::reinterpret_borrow<py::tuple>(*it);
      ++it;
      BatchRecord record;
      record.id = std::to_string(item[0].cast<std::int64_t>());
      record.request.game = utf8(item[2]);
      record.request.source = utf8(item[3]);
      record.request.episodes = item[4].cast<std::int64_t>();
      if (item[1].is_none()) {
        record.error = PythonError{item[5].cast<std::string>(), utf8(item[6])};
      } else {
        record.text = utf8(item[1]);
      }
      return record;
    };
    auto deliver = [&](BatchResult&& result) {
      py::gil_scoped_acquire acquire;
      const Reward& reward = result.reward;
      // The error's class and place beside the reward: None on success, and line and column
      // None when the error has no single place.
      const PythonError* error = reward.parse_success || !reward.error ? nullptr : &*reward.error;
      const bool placed = error != nullptr && error->has_place();
      sink(std::stoll(result.record.id), reward_tuple(reward, py::none(), py::none(), py::none()),
           result.weights_sha256 ? py::object(py::str(*result.weights_sha256)) : py::object(py::none()),
           error ? py::object(py::str(error->kind)) : py::object(py::none()),
           placed ? py::object(py::int_(error->line)) : py::object(py::none()),
           placed ? py::object(py::int_(error->column)) : py::object(py::none()), result.cached, result.seconds,
           result.steps);
    };
    py::gil_scoped_release release;
    grader_->run(next, deliver, &cancel_);
  }

 private:
  std::unique_ptr<BatchGrader> grader_;
  std::atomic<bool> cancel_{false};
};

}  // namespace
}  // namespace weightspace

PYBIND11_MODULE(_native, module) {
  using namespace weightspace;
  module.doc() = "weightspace's C++ engine (use the weightspace package, not this module)";
  main_thread_ident = py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  module.attr("AnswerError") = py::module_::import("builtins").attr("type")(
      "AnswerError", py::make_tuple(py::module_::import("builtins").attr("Exception")), py::dict());
  module.attr("AnswerError").attr("__module__") = "weightspace._native";
  module.def("grade_answer", &grade_answer, py::arg("game"), py::arg("source"), py::arg("answer"),
             py::arg("episodes"), py::arg("threads"));
  module.def("apply_edits", &apply_edits, py::arg("answer"));
  module.def("evaluate", &evaluate, py::arg("game"), py::arg("source"), py::arg("weights"), py::arg("episodes"),
             py::arg("threads"));
  // (source, name) of every registered game, so that the Python layer can refuse a misspelt game
  // in a call before grading anything.
  module.def("registered_games", [] {
    py::list games;
    for (const GameInfo& game : registered_games()) games.append(py::make_tuple(py::str(game.source), py::str(game.name)));
    return games;
  });
  module.def("weights_sha256", [](const py::dict& tensors) { return weights_sha256(weights_from(tensors)); });
  py::class_<PyBatchGrader>(module, "BatchGrader")
      .def(py::init<int, std::size_t>(), py::arg("threads"), py::arg("cache"))
      .def("run", &PyBatchGrader::run, py::arg("records"), py::arg("sink"))
      .def("cancel", &PyBatchGrader::cancel);
}
