#!/usr/bin/env python3
"""Regenerates the sample topologies and scenarios (a developer tool; the
JSON files it writes are committed, the build does not run it).

Single-node figures are the thesis's (SPEC section 7), converted per cell:
a block is 64^3 = 262144 cells, a message 64^2 = 4096 cells.
Multi-node machines are built from vendors' published figures through the
roofline form: time_per_cell = max(W/flops, Q/bandwidth) with a 7-point
double-precision stencil of W = 8 flops and Q = 24 bytes per cell
(read, write, write-allocate). Link classes carry 8 bytes per halo cell.
See samples/README.md for every source figure."""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
BLOCK = 64 ** 3
MSG = 64 ** 2

def dump(path, obj):
    with open(os.path.join(HERE, path), "w") as f:
        json.dump(obj, f, indent=2)
        f.write("\n")

def topo(types, procs, network, intra, inter=None):
    t = {"format": "stencilmap/topology", "version": 1, "types": types,
         "processors": procs, "network": network, "links": {"intra": intra}}
    if inter:
        t["links"]["inter"] = inter
    return t

def link_bw(bytes_per_s, joule_per_byte):
    return {"time_per_cell": 8.0 / bytes_per_s,
            "energy_per_cell": 8.0 * joule_per_byte}

# --- single node, thesis chapter 6 -----------------------------------------
cpu = {"time_per_cell": 218e-6 / BLOCK, "energy_per_cell": 7645e-6 / BLOCK,
       "p0": 90, "p_idle": 10}
gpu = {"time_per_cell": 28e-6 / BLOCK, "energy_per_cell": 1443e-6 / BLOCK,
       "p0": 74, "p_idle": 30}
link = {"time_per_cell": 4e-6 / MSG, "energy_per_cell": 55768e-6 / MSG}
configs = {"cpu-cpu": ["cpu", "cpu"], "cpu-gpu": ["cpu", "gpu"],
           "2cpu-2gpu": ["cpu", "cpu", "gpu", "gpu"]}
for name, kinds in configs.items():
    count = {}
    procs = []
    for k in kinds:
        count[k] = count.get(k, 0) + 1
        procs.append({"name": "%s%d" % (k, count[k] - 1), "type": k, "node": 0})
    types = {k: (cpu if k == "cpu" else gpu) for k in set(kinds)}
    dump("topologies/%s.json" % name,
         topo(types, procs, {"kind": "single"}, {"*": link}))

grid_cuboid = {"cells": [512, 256, 256], "blocks": [8, 4, 4],
               "periodic": [0, 0, 0], "stencil": "7pt", "halo": 1}
grid_sphere = dict(grid_cuboid, periodic=[1, 1, 0])
grid_big = {"cells": [1024, 512, 512], "blocks": [16, 8, 8],
            "periodic": [0, 0, 0], "stencil": "7pt", "halo": 1}
for gname, g in (("cuboid", grid_cuboid), ("sphere", grid_sphere),
                 ("cuboid-16x8x8", grid_big)):
    dump("grids/%s.json" % gname, dict({"format": "stencilmap/grid", "version": 1}, **g))

model = {"rounds": "maxdeg", "overlap": 1, "round_time": 1e-6,
         "deadline": "none", "unused": "idle"}
for name in configs:
    for gname, g in (("cuboid", grid_cuboid), ("sphere", grid_sphere)):
        dump("%s-%s.json" % (gname, name),
             {"format": "stencilmap/scenario", "version": 1,
              "name": "%s %s (thesis ch. 6)" % (gname, name), "grid": g,
              "topology": "topologies/%s.json" % name, "model": model})

# The built-in default scenario: Cuboid on CPU-GPU, self-contained.
dump("default.json",
     {"format": "stencilmap/scenario", "version": 1,
      "name": "Cuboid 8x4x4 on one CPU and one GPU (built-in)",
      "grid": grid_cuboid,
      "topology": topo({"cpu": cpu, "gpu": gpu},
                       [{"name": "cpu0", "type": "cpu", "node": 0},
                        {"name": "gpu0", "type": "gpu", "node": 0}],
                       {"kind": "single"}, {"*": link}),
      "model": model})

def roofline(flops, bw, epf, epb, p0, pidle, mem):
    return {"flops": flops, "bandwidth": bw, "flops_per_cell": 8,
            "bytes_per_cell": 24, "energy_per_flop": epf,
            "energy_per_byte": epb, "p0": p0, "p_idle": pidle, "memory": mem}

# --- Summit-like: 2 x POWER9 + 6 x V100 per node, fat tree ------------------
power9 = roofline(0.54e12, 135e9, 5e-11, 7e-10, 90, 45, 256e9)
power9["states"] = {"low": {"flops": 0.40e12, "bandwidth": 120e9,
                            "energy_per_flop": 3.5e-11, "energy_per_byte": 5.5e-10,
                            "p0": 65}}
v100 = roofline(7.8e12, 790e9, 1.5e-11, 2.5e-10, 60, 40, 16e9)
v100["states"] = {"low": {"flops": 6.1e12, "bandwidth": 700e9,
                          "energy_per_flop": 1.1e-11, "energy_per_byte": 2.0e-10,
                          "p0": 45}}
def summit(nodes, digits):
    procs = []
    for n in range(nodes):
        for s in range(2):
            procs.append({"name": "n%0*d.p9_%d" % (digits, n, s), "type": "power9", "node": n})
        for g in range(6):
            procs.append({"name": "n%0*d.v100_%d" % (digits, n, g), "type": "v100", "node": n})
    return topo(
        {"power9": power9, "v100": v100}, procs,
        {"kind": "tree", "group_sizes": [18]},
        {"power9-v100": link_bw(50e9, 1.3e-9), "v100-v100": link_bw(50e9, 1.3e-9),
         "power9-power9": link_bw(64e9, 1.6e-9)},
        [link_bw(23e9, 6.0e-9), link_bw(23e9, 9.0e-9)])
dump("topologies/summit-like-topology.json", summit(32, 2))

# The whole machine: 4,608 nodes (256 racks of 18 on the same fat tree),
# 36,864 processors. The topology format lists every processor, so this
# file is written one processor a line (about 2 MB) rather than indented.
def dump_long_list(path, obj, key):
    items = obj[key]
    text = json.dumps(dict(obj, **{key: "@@"}), indent=2)
    body = "[\n" + ",\n".join("    " + json.dumps(x) for x in items) + "\n  ]"
    with open(os.path.join(HERE, path), "w") as f:
        f.write(text.replace('"@@"', body))
        f.write("\n")
dump_long_list("topologies/summit-full-topology.json", summit(4608, 4), "processors")

# --- Piz-Daint-like: Xeon E5-2690v3 + P100 per node, dragonfly ---------------
xeon = roofline(0.499e12, 60e9, 8e-11, 9e-10, 85, 40, 64e9)
p100 = roofline(4.7e12, 550e9, 2e-11, 3e-10, 70, 35, 16e9)
nodes = 64
procs = []
for n in range(nodes):
    procs.append({"name": "n%02d.xeon" % n, "type": "xeon", "node": n})
    procs.append({"name": "n%02d.p100" % n, "type": "p100", "node": n})
dump("topologies/piz-daint-like-topology.json", topo(
    {"xeon": xeon, "p100": p100}, procs,
    {"kind": "tree", "group_sizes": [4, 16, 6]},
    {"p100-xeon": link_bw(11e9, 3.0e-9)},
    [link_bw(10e9, 4.0e-9), link_bw(10e9, 6.0e-9), link_bw(10e9, 8.0e-9),
     link_bw(10e9, 1.2e-8)]))

# --- Fugaku-like: A64FX (4 CMGs) per node, torus -----------------------------
cmg = roofline(0.845e12, 230e9, 1.5e-11, 2.2e-10, 25, 12, 8e9)
procs = []
for n in range(64):
    for c in range(4):
        procs.append({"name": "n%02d.cmg%d" % (n, c), "type": "a64fx_cmg", "node": n})
dump("topologies/fugaku-like-topology.json", topo(
    {"a64fx_cmg": cmg}, procs, {"kind": "torus", "dims": [4, 4, 4]},
    {"a64fx_cmg-a64fx_cmg": link_bw(115e9, 5e-10)},
    [link_bw(6.8e9, 5.0e-9)]))

# --- HAEC box: 4 boards of 4x4 nodes, one processor each ---------------------
haec = {"time_per_cell": 5e-10, "energy_per_cell": 1e-8, "p0": 10, "p_idle": 4}
procs = [{"name": "b%d.%02d" % (n // 16, n % 16), "type": "haec", "node": n}
         for n in range(64)]
dump("topologies/haec-topology.json", topo(
    {"haec": haec}, procs,
    {"kind": "haec", "boards": 4, "board_dims": [4, 4]},
    {"*": link_bw(10e9, 2e-9)},
    [link_bw(12.5e9, 1.5e-9), link_bw(12.5e9, 3.0e-9)]))

# Multi-node scenarios on the 16x8x8 Cuboid.
for name, dl in (("summit-like", 1.776e-4), ("piz-daint-like", 1.95e-3),
                 ("fugaku-like", None), ("haec", None)):
    m = dict(model, round_time=1e-7)
    m["deadline"] = dl if dl else "none"
    dump("%s.json" % name,
         {"format": "stencilmap/scenario", "version": 1,
          "name": "Cuboid 16x8x8 on the %s machine" % name, "grid": grid_big,
          "topology": "topologies/%s.json" % name, "model": m})

# The whole Summit: 256^3 = 16.7 M blocks of 64^3 cells (a 16384^3 grid,
# 7pt) on all 4,608 nodes. No deadline: solvers hold themselves to their
# own (tabu: the fastest start's makespan).
dump("summit-full.json",
     {"format": "stencilmap/scenario", "version": 1,
      "name": "256^3 blocks on the whole Summit-like machine (4,608 nodes)",
      "grid": {"cells": [16384, 16384, 16384], "blocks": [256, 256, 256],
               "periodic": [0, 0, 0], "stencil": "7pt", "halo": 1},
      "topology": "topologies/summit-full-topology.json",
      "model": dict(model, round_time=1e-7)})

# Besmer's LU pattern on the HAEC box.
dump("lu-haec.json",
     {"format": "stencilmap/scenario", "version": 1,
      "name": "NAS LU pattern, 8x8 blocks on the HAEC box (Besmer)",
      "grid": {"cells": [512, 512, 1], "blocks": [8, 8, 1],
               "periodic": [0, 0, 0], "stencil": "5pt", "halo": 1},
      "topology": "topologies/haec-topology.json", "model": model,
      "mapping": list(range(64))})

# Measured-style profiles (popta, SPEC 2.2): the thesis's CPU and GPU on
# the Cuboid, as a benchmark run would record them - the GPU wastes time
# on small sizes (launch latency, idle SMs) and was measured every 8 blocks
# up to its memory (120 blocks); the CPU slows beyond its cache (32 blocks)
# and was measured every 4 blocks; a deterministic +-3% jitter stands for
# run-to-run noise, so the profiles are not monotone per block.
import math
def measured(tb, eb, sizes, shape):
    pts = []
    for i, b in enumerate(sizes):
        f = shape(b) * (1 + 0.03 * math.sin(2.7 * i + 0.5))
        pts.append([b, round(tb * b * f, 9), round(eb * b * f, 9)])
    return pts
cpu_prof = {"p0": 90, "p_idle": 10,
            "profile": measured(218e-6, 7645e-6, range(4, 129, 4),
                                lambda b: 1.0 if b <= 32 else 1.12)}
gpu_prof = {"p0": 74, "p_idle": 30,
            "profile": measured(28e-6, 1443e-6, range(8, 121, 8),
                                lambda b: 1 + 6.0 / b)}
dump("topologies/profiles-cpu-gpu-topology.json", topo(
    {"cpu": cpu_prof, "gpu": gpu_prof},
    [{"name": "cpu0", "type": "cpu", "node": 0},
     {"name": "cpu1", "type": "cpu", "node": 0},
     {"name": "gpu0", "type": "gpu", "node": 0}],
    {"kind": "single"}, {"*": link}))
dump("profiles-cpu-gpu.json",
     {"format": "stencilmap/scenario", "version": 1,
      "name": "Cuboid on 2 CPUs + 1 GPU with measured profiles (popta)",
      "grid": grid_cuboid, "topology": "topologies/profiles-cpu-gpu-topology.json",
      "model": model})
# Besmer's LU pattern (a 2-D, 5-point, non-periodic grid of one block per
# process, block id = rank, x fastest) on k^3 tori and HAEC boxes of k
# boards of k x k, one processor per node. NAS LU's process grid for 2^m
# ranks: x = 2^ceil(m/2), y = 2^floor(m/2) (512 -> 32 x 16, 4096 -> 64 x 64;
# SPEC 7).
def lu_blocks(n):
    m = n.bit_length() - 1
    assert n == 1 << m, "NAS LU runs on a power of two"
    return 1 << ((m + 1) // 2), 1 << (m // 2)

def one_per_node(n, prefix):
    return [{"name": "%s%d" % (prefix, i), "type": "node", "node": i} for i in range(n)]

for k in (4, 8, 16):
    n = k ** 3
    bx, by = lu_blocks(n)
    grid = {"cells": [64 * bx, 64 * by, 1], "blocks": [bx, by, 1],
            "periodic": [0, 0, 0], "stencil": "5pt", "halo": 1}
    for kind, net in (("torus", {"kind": "torus", "dims": [k, k, k]}),
                      ("haec", {"kind": "haec", "boards": k, "board_dims": [k, k]})):
        if kind == "haec" and k == 4:
            continue  # lu-haec.json above
        tname = "topologies/%s%d.json" % (kind, k)
        inter = [link_bw(12.5e9, 1.5e-9)]
        if kind == "haec":
            inter.append(link_bw(12.5e9, 3.0e-9))
        dump(tname, topo({"node": haec}, one_per_node(n, "n"), net,
                         {"*": link_bw(10e9, 2e-9)}, inter))
        dump("lu-%s%d.json" % (kind, k),
             {"format": "stencilmap/scenario", "version": 1,
              "name": "NAS LU pattern, %dx%d blocks on the %d^3 %s (Besmer)"
                      % (bx, by, k, kind),
              "grid": grid, "topology": tname, "model": model})
