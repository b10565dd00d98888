// The page-data contract: what src/render/html/page_data.cpp writes into a page's etviz-data
// element and the viewer reads (data.js decodes it, GraphModel and panel.js read it), declared
// once, here. Both sides are held to it:
//   - the viewer by TypeScript (`tsc -p web`, CTest web_typecheck): every module is checked
//     with these types, so reading a key not declared here fails;
//   - the writer by tests/web/page_contract.test.mjs (CTest web_page_contract): it writes
//     pages of a corpus program and generated programs and compares the keys each page holds
//     with the keys declared here, both ways (every key written is declared, every declared
//     key is written, and those not marked optional are written on every page).
// A new key is declared here first; the test then names the writer's side if it is missing.
//
// Columns: the graph's arrays are one entry per node, value, edge or group (or, for the
// offset-indexed lists, per item), as plain arrays in a JSON page (--no-compress) and typed
// arrays when decoded from the column encoding (data.js, decodeColumns). A string id indexes
// `strings`; -1 is none.
export {};

/** @typedef {number[] | Int32Array | Float64Array} Column */

/**
 * The page data of one file.
 * @typedef {object} PageData
 * @property {number} version  the page data's format (1)
 * @property {PageFile} file
 * @property {[string, string][]} props  the file's properties, [key, value]
 * @property {[string, string, number, number][]} sections  the file's sections, [name, kind, offset, size]
 * @property {[string, string][]} diagnostics  the reader's notes, [severity ("error" when the file is damaged), message]
 * @property {Category[]} cats  op categories, indexed by the nodes' `cat`
 * @property {Delegate[]} delegates  every delegate call site of the file
 * @property {Delegation} [delegation]  what each backend took; only when some subgraph is delegated
 * @property {number[]} layoutOptions  the options the embedded layouts were computed with, for re-layout in the page
 * @property {string[]} layoutOptionNames  their names, in the same order (src/layout/options.cpp)
 * @property {PageGraph[]} graphs
 * @property {string[]} strings  the string table the graphs' string ids index
 */

/**
 * @typedef {object} PageFile
 * @property {string} name
 * @property {number} size  bytes
 * @property {string} format  the document format ("executorch_program", ...)
 * @property {string} formatVersion
 */

/**
 * @typedef {object} Category
 * @property {string} id
 * @property {string} label
 * @property {string} color  CSS colour
 * @property {string} rule  how a node gets it, for the legend's tooltip
 */

/**
 * @typedef {object} Delegate
 * @property {string} backend  the backend id
 * @property {string} method
 * @property {number} index  the call's index in its method
 * @property {string} location  where the payload is (inline, segment, named data)
 * @property {number} payloadIndex  -1 when the location has no index
 * @property {number} payloadSize  bytes; -1 when the payload is not in the file
 * @property {number} subgraph  the decoded payload's graph in the document, -1 when undecoded
 * @property {boolean} opaque  the payload could only be summarised
 * @property {string} note  the decoder's note
 * @property {string} tosaFile  the TOSA side file (--tosa) whose graph shows its operators; empty when none
 * @property {[string, string][]} specs  compile specs, [key, value as shown]
 */

/**
 * The numbers `etviz delegation` prints (src/analysis/delegation.h).
 * @typedef {object} Delegation
 * @property {number} subgraphs  delegated subgraphs
 * @property {number} delegated  delegated ops
 * @property {number} nonDelegated  ops on the CPU
 * @property {number} opaque  payloads summarised, their ops not counted
 * @property {[string, number, number, number, number][]} backends  [backend, subgraphs, decoded, opaque, delegated ops]
 * @property {[string, number, number][]} operators  [op, delegated, on the CPU]
 */

/**
 * One graph as the page shows it: its nodes, values, edges and groups (with those of the
 * subgraphs inlined into it) and their embedded layout.
 * @typedef {object} PageGraph
 * @property {string} name
 * @property {string} kind  method, delegate, exported_program, subgraph, imported (core GraphKind)
 * @property {number} irNodes  the graph's own node count (inlined subgraphs apart)
 * @property {[string, string][]} attrs  the graph's attributes (stage, opaque, the reader's), [key, value]
 * @property {number[]} arena  planned memory per arena, bytes
 * @property {NodeColumns} n
 * @property {ValueColumns} v
 * @property {EdgeColumns} e
 * @property {GroupColumns} g
 * @property {number[][]} qdq  QDQ clusters (dequantize -> op -> quantize), as lists of node ids
 */

/**
 * Per node (view node ids: the graph's nodes, then those of inlined subgraphs).
 * @typedef {object} NodeColumns
 * @property {Column} name  string id; with nameN >= 0 the name is `${strings[name]}_${nameN}`
 * @property {Column} nameN  the number of a name "prefix_12" (12), else -1
 * @property {Column} op  string id
 * @property {Column} label  string id: the text drawn in the box
 * @property {Column} kind  string id: input, output, constant, kernel, delegate, ... (core NodeKind)
 * @property {Column} cat  index into cats
 * @property {Column} group  innermost group, -1 at the top level
 * @property {Column} graph  the document graph the node comes from
 * @property {Column} w  box width
 * @property {Column} h  box height
 * @property {Column} deleg  index into delegates, -1
 * @property {Column} stub  string id: what a broadcast source's stub says of its undrawn uses, -1
 * @property {Column} drawnAt  a call whose nested graph is drawn at another call: that call's node, -1
 * @property {Column} instr  instruction index, -1
 * @property {Column} chain  execution chain, -1
 * @property {Column} module  string id: module path
 * @property {Column} stack  string id: stack trace
 * @property {Column} handles  string id: debug handles, "3, 4"
 * @property {Column} inOff  per node + 1: offsets into inName/inVal
 * @property {Column} inName  per input: argument name, string id
 * @property {Column} inVal  per input: value id, -1
 * @property {Column} outOff  per node + 1: offsets into outName/outVal
 * @property {Column} outName  per output: argument name, string id
 * @property {Column} outVal  per output: value id, -1
 * @property {Column} atOff  per node + 1: offsets into atKey/atVal
 * @property {Column} atKey  per attribute: string id
 * @property {Column} atVal  per attribute: string id
 * @property {Column} x  layout: box left
 * @property {Column} y  layout: box top
 */

/**
 * Per value (the graph's values, then each inlined subgraph's, consecutive).
 * @typedef {object} ValueColumns
 * @property {Column} name  string id, or -2 - k for the name "vk" (the value's index in its graph)
 * @property {Column} kind  string id: tensor, int, int_list, ... (core ValueKind)
 * @property {Column} dtype  string id
 * @property {Column} shape  string id: "[1, 16, 32]"
 * @property {Column} dimOrder  string id
 * @property {Column} memId  planned tensor: its arena; -1 when not planned
 * @property {Column} memOff  planned tensor: its offset in the arena
 * @property {Column} loc  string id: where constant data lives
 * @property {Column} key  string id: the constant's data key
 * @property {Column} nbytes  size in bytes
 * @property {Column} lit  string id: a literal's text
 * @property {Column} items  string id: the values a boxed list names, "v12, v13"
 * @property {Column} quant  string id: quantization parameters
 * @property {Column} dyn  dynamism (0 static, 1 bounded, 2 unbounded)
 * @property {Column} prod  producer node, -1
 */

/**
 * Per edge, and the edges' routes as the layout left them.
 * @typedef {object} EdgeColumns
 * @property {Column} src  source node
 * @property {Column} dst  target node
 * @property {Column} val  the value the edge carries, -1
 * @property {Column} sp  source port (output slot), -1
 * @property {Column} tp  target port (input slot), -1
 * @property {Column} structural  1: call node -> its inlined subgraph
 * @property {Column} detached  1: left out of the layout (a broadcast source's edge, drawn on selection)
 * @property {Column} share  the edge whose route this one starts along (a shared trunk), -1
 * @property {Column} shareN  how many of that edge's points it shares
 * @property {Column} ptOff  per edge + 1: offsets into pts (points)
 * @property {Column} pts  route points, x and y interleaved
 * @property {Column} lx  label position x
 * @property {Column} ly  label position y
 */

/**
 * Per group (module scopes, delegate payloads, bodies, repeats, QDQ clusters, partitions, folds).
 * @typedef {object} GroupColumns
 * @property {Column} name  string id
 * @property {Column} label  string id
 * @property {Column} kind  string id: module, delegate, repeat, qdq_cluster, ... (core GroupKind)
 * @property {Column} parent  -1 at the top level
 * @property {Column} owner  the call node of an inlined subgraph, -1
 * @property {Column} count  nodes inside
 * @property {Column} badge  string id: what a collapsed box says of its size ("168 ops"), -1
 * @property {Column} expanded  1 when open in the initial view
 * @property {Column} cw  collapsed box width
 * @property {Column} ch  collapsed box height
 * @property {Column} atOff  per group + 1: offsets into atKey/atVal
 * @property {Column} atKey  per attribute: string id
 * @property {Column} atVal  per attribute: string id
 * @property {Column} opOff  per group + 1: offsets into opKey/opCount
 * @property {Column} opKey  per op inside: string id, most frequent first
 * @property {Column} opCount  per op inside: how many
 * @property {Column} ctens  constant tensors read inside, each once
 * @property {Column} params  their elements
 * @property {Column} pbytes  their bytes
 * @property {Column} x  layout: box left
 * @property {Column} y  layout: box top
 * @property {Column} w  layout: box width
 * @property {Column} h  layout: box height
 */
