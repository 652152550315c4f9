// Times Eigen's tensor contraction on one contraction.
//
// usage: eigen_tc SPEC EXTENTS f32|f64 THREADS
//   SPEC "bda,dc->abc", EXTENTS "a:312,b:312,c:24,d:312"
// Row-major tensors, C = A.contract(B, pairs).shuffle(perm) into C's label
// order; one thread on the default device, more on a ThreadPoolDevice.
// Prints the best seconds per call and the repetitions timed, by the rule
// of tccg.py: one warm-up call, then repetitions until 1.5 s and 3 of them
// have passed or 15 have run, at most about 8 s in all.
#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Case {
  std::string a, b, c;
  std::map<char, long> ext;
};

template <typename F>
void timeit(F f, double &best, int &reps) {
  double t0 = now();
  f();
  double t1 = now();
  best = 1e30;
  reps = 0;
  for (;;) {
    double s = now();
    f();
    double e = now() - s;
    if (e < best) best = e;
    reps++;
    double t = now();
    if (reps >= 15 || (reps >= 3 && t - t1 >= 1.5) || t - t0 + best > 8.0) break;
  }
}

template <typename T, int RA, int RB, int NP, typename Dev>
void run(const Case &cs, Dev &dev) {
  constexpr int RC = RA + RB - 2 * NP;
  Eigen::array<Eigen::Index, RA> da;
  Eigen::array<Eigen::Index, RB> db;
  Eigen::array<Eigen::Index, RC> dc;
  for (int i = 0; i < RA; i++) da[i] = cs.ext.at(cs.a[i]);
  for (int i = 0; i < RB; i++) db[i] = cs.ext.at(cs.b[i]);
  for (int i = 0; i < RC; i++) dc[i] = cs.ext.at(cs.c[i]);
  // Contracted labels pair A's dims with B's; the result's dims are A's
  // free ones then B's, shuffled into C's order.
  Eigen::array<Eigen::IndexPair<int>, NP> pairs;
  int p = 0;
  std::string order;
  for (int i = 0; i < RA; i++) {
    size_t j = cs.b.find(cs.a[i]);
    if (j != std::string::npos && cs.c.find(cs.a[i]) == std::string::npos) {
      pairs[p++] = Eigen::IndexPair<int>(i, int(j));
    } else {
      order.push_back(cs.a[i]);
    }
  }
  for (int j = 0; j < RB; j++)
    if (cs.a.find(cs.b[j]) == std::string::npos) order.push_back(cs.b[j]);
  if (p != NP || int(order.size()) != RC) {
    std::fprintf(stderr, "eigen_tc: labels do not form a contraction\n");
    std::exit(2);
  }
  Eigen::array<int, RC> perm;
  for (int i = 0; i < RC; i++) perm[i] = int(order.find(cs.c[i]));
  Eigen::Tensor<T, RA, Eigen::RowMajor> A(da);
  Eigen::Tensor<T, RB, Eigen::RowMajor> B(db);
  Eigen::Tensor<T, RC, Eigen::RowMajor> C(dc);
  A.setRandom();
  B.setRandom();
  C.setZero();
  double best;
  int reps;
  timeit([&] { C.device(dev) = A.contract(B, pairs).shuffle(perm); }, best, reps);
  std::printf("%.9g %d\n", best, reps);
}

// Ranks are template parameters: the rank combinations of the public TCCG
// list (rank of A, of B, contracted labels).
template <typename T, typename Dev>
void dispatch(const Case &cs, Dev &dev) {
  int ra = cs.a.size(), rb = cs.b.size(), rc = cs.c.size();
  int np = (ra + rb - rc) / 2;
  switch (ra * 100 + rb * 10 + np) {
#define RANKS(RA, RB, NP) \
  case RA * 100 + RB * 10 + NP: run<T, RA, RB, NP>(cs, dev); return;
    RANKS(3, 2, 1) RANKS(4, 2, 1) RANKS(5, 2, 1) RANKS(2, 4, 1) RANKS(3, 3, 2) RANKS(4, 3, 2) RANKS(4, 4, 1)
    RANKS(4, 4, 2)
#undef RANKS
  }
  std::fprintf(stderr, "eigen_tc: ranks %d, %d with %d contracted are not built in\n", ra, rb, np);
  std::exit(2);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: eigen_tc SPEC EXTENTS f32|f64 THREADS\n");
    return 2;
  }
  Case cs;
  std::string spec = argv[1];
  size_t comma = spec.find(','), arrow = spec.find("->");
  cs.a = spec.substr(0, comma);
  cs.b = spec.substr(comma + 1, arrow - comma - 1);
  cs.c = spec.substr(arrow + 2);
  std::string ex = argv[2];
  for (size_t pos = 0; pos < ex.size();) {
    size_t e = ex.find(',', pos);
    if (e == std::string::npos) e = ex.size();
    cs.ext[ex[pos]] = std::atol(ex.c_str() + pos + 2);
    pos = e + 1;
  }
  bool f32 = std::string(argv[3]) == "f32" || std::string(argv[3]) == "float32";
  int threads = std::atoi(argv[4]);
  if (threads <= 1) {
    Eigen::DefaultDevice dev;
    f32 ? dispatch<float>(cs, dev) : dispatch<double>(cs, dev);
  } else {
    Eigen::ThreadPool pool(threads);
    Eigen::ThreadPoolDevice dev(&pool, threads);
    f32 ? dispatch<float>(cs, dev) : dispatch<double>(cs, dev);
  }
  return 0;
}
