#include "export_model.h"

#include <fmt/format.h>

namespace etviz::gen {
namespace {

class ModelBuilder {
 public:
  ModelBuilder(ExportProgram& p, const ExportModelSpec& spec) : p_(p), spec_(spec) {}

  ExportDim seq() const {
    return spec_.symbolic_seq ? ExportDim{spec_.seq, "s0"} : ExportDim{spec_.seq, ""};
  }

  std::string tensor(const std::string& name, std::vector<ExportDim> sizes, bool grad = false) {
    p_.graph.tensors.push_back({name, 7, std::move(sizes), grad});
    return name;
  }

  std::string param(const std::string& fqn, std::vector<ExportDim> sizes) {
    std::string placeholder = "p_" + fqn;
    for (char& c : placeholder)
      if (c == '.') c = '_';
    tensor(placeholder, std::move(sizes), true);
    p_.graph.inputs.push_back(ExportArg::tensor(placeholder));
    p_.inputs.push_back({"parameter", placeholder, fqn});
    return placeholder;
  }

  // One aten call producing one tensor; the module stack is the current scope.
  std::string call(const std::string& op, std::vector<std::pair<std::string, ExportArg>> args,
                   std::vector<ExportDim> out_sizes, int line) {
    ExportNode n;
    n.name = fmt::format("{}_{}", op.substr(0, op.find('.')), counter_++);
    n.target = "torch.ops.aten." + op;
    n.inputs = std::move(args);
    tensor(n.name, std::move(out_sizes));
    n.outputs.push_back(ExportArg::tensor(n.name));
    n.module_stack = scope_;
    n.stack.push_back({"/home/user/model/llama.py", 400, "forward", "h = self.layers[i](h)"});
    n.stack.push_back(
        {scope_file_, line, "forward", fmt::format("return F.{}(x)", op.substr(0, op.find('.')))});
    if (spec_.debug_handles) n.debug_handle = ++handle_;
    p_.graph.nodes.push_back(std::move(n));
    return p_.graph.nodes.back().name;
  }

  void enter(const std::string& attr, const std::string& type, const std::string& file) {
    const std::string path = scope_.size() <= 1 ? attr : scope_.back().path + "." + attr;
    std::string key = "L__self___" + path;
    for (char& c : key)
      if (c == '.') c = '_';
    scope_.push_back({key, path, type});
    files_.push_back(scope_file_);
    scope_file_ = file;
  }
  void leave() {
    scope_.pop_back();
    scope_file_ = files_.back();
    files_.pop_back();
  }

  std::string linear(const std::string& name, const std::string& x, int in, int out) {
    enter(name, "torch.nn.modules.linear.Linear", "/usr/lib/python3/torch/nn/modules/linear.py");
    const std::string w = param(scope_.back().path + ".weight", {{out, ""}, {in, ""}});
    const std::string y =
        call("linear.default", {{"input", ExportArg::tensor(x)}, {"weight", ExportArg::tensor(w)}},
             {{1, ""}, seq(), {out, ""}}, 125);
    leave();
    return y;
  }

  std::string rms_norm(const std::string& name, const std::string& x) {
    enter(name, "model.RMSNorm", "/home/user/model/norm.py");
    const std::string w = param(scope_.back().path + ".weight", {{spec_.dim, ""}});
    const auto full = std::vector<ExportDim>{{1, ""}, seq(), {spec_.dim, ""}};
    const auto red = std::vector<ExportDim>{{1, ""}, seq(), {1, ""}};
    auto sq = call("pow.Tensor_Scalar",
                   {{"self", ExportArg::tensor(x)}, {"exponent", ExportArg::integer(2)}}, full, 30);
    auto mean = call("mean.dim",
                     {{"self", ExportArg::tensor(sq)},
                      {"dim", ExportArg::ints_of({-1})},
                      {"keepdim",
                       [] {
                         ExportArg a;
                         a.kind = ExportArg::Kind::kBool;
                         a.b = true;
                         return a;
                       }()}},
                     red, 30);
    auto eps =
        call("add.Scalar",
             {{"self", ExportArg::tensor(mean)}, {"other", ExportArg::floating(1e-6)}}, red, 30);
    auto rs = call("rsqrt.default", {{"self", ExportArg::tensor(eps)}}, red, 30);
    auto n = call("mul.Tensor", {{"self", ExportArg::tensor(x)}, {"other", ExportArg::tensor(rs)}},
                  full, 31);
    auto y = call("mul.Tensor", {{"self", ExportArg::tensor(n)}, {"other", ExportArg::tensor(w)}},
                  full, 32);
    leave();
    return y;
  }

  std::string block(int i, const std::string& x) {
    enter(std::to_string(i), "model.TransformerBlock", "/home/user/model/llama.py");
    const auto full = std::vector<ExportDim>{{1, ""}, seq(), {spec_.dim, ""}};
    const auto heads = std::vector<ExportDim>{{1, ""}, seq(), {4, ""}, {spec_.dim / 4, ""}};
    const auto t_heads = std::vector<ExportDim>{{1, ""}, {4, ""}, seq(), {spec_.dim / 4, ""}};
    auto h = rms_norm("attention_norm", x);
    enter("attention", "model.Attention", "/home/user/model/attention.py");
    auto q = linear("wq", h, spec_.dim, spec_.dim);
    auto k = linear("wk", h, spec_.dim, spec_.dim);
    auto v = linear("wv", h, spec_.dim, spec_.dim);
    ExportArg shape = ExportArg::ints_of({1, -1, 4, spec_.dim / 4});
    q = call("view.default", {{"self", ExportArg::tensor(q)}, {"size", shape}}, heads, 80);
    k = call("view.default", {{"self", ExportArg::tensor(k)}, {"size", shape}}, heads, 81);
    v = call("view.default", {{"self", ExportArg::tensor(v)}, {"size", shape}}, heads, 82);
    q = call("transpose.int",
             {{"self", ExportArg::tensor(q)},
              {"dim0", ExportArg::integer(1)},
              {"dim1", ExportArg::integer(2)}},
             t_heads, 83);
    k = call("transpose.int",
             {{"self", ExportArg::tensor(k)},
              {"dim0", ExportArg::integer(1)},
              {"dim1", ExportArg::integer(2)}},
             t_heads, 84);
    v = call("transpose.int",
             {{"self", ExportArg::tensor(v)},
              {"dim0", ExportArg::integer(1)},
              {"dim1", ExportArg::integer(2)}},
             t_heads, 85);
    auto a = call("scaled_dot_product_attention.default",
                  {{"query", ExportArg::tensor(q)},
                   {"key", ExportArg::tensor(k)},
                   {"value", ExportArg::tensor(v)},
                   {"attn_mask", ExportArg::none()},
                   {"dropout_p", ExportArg::floating(0.0)}},
                  t_heads, 90);
    a = call("transpose.int",
             {{"self", ExportArg::tensor(a)},
              {"dim0", ExportArg::integer(1)},
              {"dim1", ExportArg::integer(2)}},
             heads, 91);
    a = call("view.default",
             {{"self", ExportArg::tensor(a)}, {"size", ExportArg::ints_of({1, -1, spec_.dim})}},
             full, 92);
    a = linear("wo", a, spec_.dim, spec_.dim);
    leave();
    auto r = call("add.Tensor", {{"self", ExportArg::tensor(x)}, {"other", ExportArg::tensor(a)}},
                  full, 60);
    h = rms_norm("ffn_norm", r);
    enter("feed_forward", "model.FeedForward", "/home/user/model/mlp.py");
    const auto wide = std::vector<ExportDim>{{1, ""}, seq(), {spec_.hidden, ""}};
    auto g = linear("w1", h, spec_.dim, spec_.hidden);
    auto u = linear("w3", h, spec_.dim, spec_.hidden);
    g = call("silu.default", {{"self", ExportArg::tensor(g)}}, wide, 20);
    g = call("mul.Tensor", {{"self", ExportArg::tensor(g)}, {"other", ExportArg::tensor(u)}}, wide,
             20);
    auto d = linear("w2", g, spec_.hidden, spec_.dim);
    leave();
    auto y = call("add.Tensor", {{"self", ExportArg::tensor(r)}, {"other", ExportArg::tensor(d)}},
                  full, 62);
    leave();
    return y;
  }

  std::shared_ptr<ExportGraph> branch(const std::string& op, const std::string& input) {
    auto g = std::make_shared<ExportGraph>();
    const auto full = std::vector<ExportDim>{{1, ""}, seq(), {spec_.dim, ""}};
    g->inputs.push_back(ExportArg::tensor(input));
    g->tensors.push_back({input, 7, full, false});
    ExportNode n;
    n.name = op + "_branch";
    n.target = "torch.ops.aten." + op + ".default";
    n.inputs.push_back({"self", ExportArg::tensor(input)});
    n.outputs.push_back(ExportArg::tensor(n.name));
    n.stack.push_back({"/home/user/model/llama.py", 420, "true_fn", "return torch." + op + "(h)"});
    g->tensors.push_back({n.name, 7, full, false});
    g->nodes.push_back(std::move(n));
    g->outputs.push_back(ExportArg::tensor(op + "_branch"));
    return g;
  }

  void build() {
    p_.schema1_style = spec_.schema1_style;
    scope_.push_back({"L__self__", "", "model.Transformer"});
    scope_file_ = "/home/user/model/llama.py";
    const std::string x = tensor("x", {{1, ""}, seq(), {spec_.dim, ""}});
    std::string h = x;
    for (int i = 0; i < spec_.blocks; ++i) {
      enter("layers", "torch.nn.modules.container.ModuleList", "/home/user/model/llama.py");
      h = block(i, h);
      leave();
    }
    if (spec_.with_cond) {
      ExportArg pred;
      pred.kind = ExportArg::Kind::kBool;
      pred.b = true;
      ExportArg t;
      t.kind = ExportArg::Kind::kGraph;
      t.name = "true_graph_0";
      t.graph = branch("relu", "h_in");
      ExportArg f = t;
      f.name = "false_graph_0";
      f.graph = branch("neg", "h_in");
      ExportArg ops;
      ops.kind = ExportArg::Kind::kTensors;
      ops.names = {h};
      ExportNode n;
      n.name = "cond";
      n.target = "torch.ops.higher_order.cond";
      n.inputs = {{"pred", pred}, {"true_fn", t}, {"false_fn", f}, {"operands", ops}};
      tensor("getitem", {{1, ""}, seq(), {spec_.dim, ""}});
      ExportArg outs;
      outs.kind = ExportArg::Kind::kTensors;
      outs.names = {"getitem"};
      n.outputs.push_back(outs);
      n.module_stack = scope_;
      p_.graph.nodes.push_back(std::move(n));
      h = "getitem";
    }
    p_.graph.inputs.push_back(ExportArg::tensor(x));
    p_.inputs.push_back({"user_input", x, ""});
    p_.graph.outputs.push_back(ExportArg::tensor(h));
    p_.outputs.push_back({"user_output", h, ""});
    if (spec_.symbolic_seq) p_.ranges["s0"] = {2, 2048};
  }

 private:
  ExportProgram& p_;
  const ExportModelSpec& spec_;
  std::vector<ExportModuleFrame> scope_;
  std::vector<std::string> files_;
  std::string scope_file_;
  int counter_ = 0;
  int64_t handle_ = 0;
};

}  // namespace

ExportProgram build_export_transformer(const ExportModelSpec& spec) {
  ExportProgram p;
  ModelBuilder(p, spec).build();
  return p;
}

}  // namespace etviz::gen
