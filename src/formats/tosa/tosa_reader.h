#pragma once
// TOSA flatbuffers (identifier "TOSA", schema formats/tosa/schemas/tosa.fbs, TOSA 1.0 and
// 1.1): the graph Arm's ExecuTorch backends hand to Vela (Ethos-U) or to the VGF converter,
// written beside a program as `output_<tag>_TOSA-<spec>.tosa` when the compile keeps its
// intermediates, and the payload of TOSABackend delegates.
//
// A file holds regions of basic blocks; the entry is the first block of region "main" (else
// of the first region). Every block becomes one graph: its tensors and shapes are values, its
// inputs and outputs the graph's (named as the file names them, core/graph_builder.h), each
// CONST/CONST_SHAPE operator a constant node named by its tensor, every other operator a node
// named by its first result, with the operator's attributes (formats/tosa/tosa_ops.h spells
// them as the VGF decoder does). Control flow (COND_IF, WHILE_LOOP) names regions: the node
// opens the graph of its first body (Node::subgraph), the others are named in attributes
// `subgraph.<field>`. Constant bytes stay in the file: Graph::constant_data records where,
// read only when asked (Document::bytes).
//
// Hostile input: the flatbuffer verifier with bounds (formats/flatbuffer_verify.h), every
// name an operator or a block's inputs and outputs use must name a tensor or shape of its
// block, every region a control-flow operator names must exist and must not lead back to
// itself, constants stored outside the flatbuffer must lie inside the file, and what is
// copied is charged to an ExpansionBudget. Errors name the block and operator.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/document.h"
#include "core/status.h"

namespace etviz::tosa {

// True when `bytes` carry the TOSA file identifier (bytes 4..8).
bool looks_like_tosa(std::span<const uint8_t> bytes);

struct ReadOptions {
  std::string graph_name = "main";  // the entry block's graph; nested graphs are named under it
  GraphKind kind = GraphKind::kImported;  // the entry graph's kind (kDelegate for a delegate)
  int32_t source = 0;      // Document::sources index the bytes come from (constants' BlobRefs)
  uint64_t base = 0;       // offset of `bytes` in that source
  uint64_t file_size = 0;  // size of that source; 0: the bytes are the whole file
};

// The main block's inputs and outputs, for matching a file to a delegate.
struct IoTensor {
  std::string dtype;  // canonical ("int8")
  std::vector<int64_t> shape;
};

struct TosaGraphs {
  // [0] is the entry block; Node::subgraph values index this vector (0 is never opened).
  std::vector<Graph> graphs;
  std::string version;           // "1.0.0" (+ " draft")
  std::string software_version;  // TOSA 1.1 files: the serializer's version, else empty
  int64_t operators = 0;         // in every block, constants included
  std::vector<IoTensor> inputs, outputs;
  std::vector<std::string> warnings;  // data shorter than its shape needs, ...
  std::vector<std::string> notes;     // what is odd but harmless (data longer than needed)
};

// Reads a TOSA flatbuffer. Errors say what is wrong and where (block, operator), without the
// file's path: callers add it.
Result<TosaGraphs> read_tosa(std::span<const uint8_t> bytes, const ReadOptions& options);

// A .tosa file opened on its own: a Document of format kTosa whose graphs are the blocks.
Result<Document> read_tosa_file(std::shared_ptr<const MappedFile> file);

// "[1, 3, 224, 224] int8" for messages.
std::string describe(const IoTensor& t);

}  // namespace etviz::tosa
