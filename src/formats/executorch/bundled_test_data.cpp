#include "formats/executorch/bundled_test_data.h"

#include <fmt/format.h>

#include "bundled_program_generated.h"
#include "formats/executorch/scalar_type.h"
#include "formats/flatbuffer_verify.h"

namespace etviz::executorch {

Result<BundledCases> bundled_expected_outputs(std::span<const uint8_t> bundle,
                                              const std::string& method, int64_t index) {
  namespace fb = etviz::bundled;
  if (auto s = verify_flatbuffer<fb::BundledProgram>(bundle, "BP08", "bundled program"); !s)
    return s.error();
  const auto* root = flatbuffers::GetRoot<fb::BundledProgram>(bundle.data());
  const fb::BundledMethodTestSuite* suite = nullptr;
  std::vector<std::string> methods;
  if (const auto* suites = root->method_test_suites())
    for (const fb::BundledMethodTestSuite* s : *suites) {
      const std::string name = s->method_name() ? s->method_name()->str() : "";
      methods.push_back(name);
      if (name == method) suite = s;
    }
  if (!suite)
    return Error(
        fmt::format("the bundled program has no test suite for method '{}' (suites: {})", method,
                    methods.empty() ? "none" : fmt::format("{}", fmt::join(methods, ", "))));
  BundledCases out;
  out.cases = suite->test_cases() ? suite->test_cases()->size() : 0;
  if (index < 0 || static_cast<size_t>(index) >= out.cases)
    return Error(fmt::format("method '{}' has {} test case{}; there is no case {}", method,
                             out.cases, out.cases == 1 ? "" : "s", index));
  const auto* tc = suite->test_cases()->Get(static_cast<flatbuffers::uoffset_t>(index));
  if (!tc->expected_outputs()) return out;
  for (const fb::Value* v : *tc->expected_outputs()) {
    BundledTensor t;
    switch (v ? v->val_type() : fb::ValueUnion::NONE) {
      case fb::ValueUnion::Tensor: {
        const fb::Tensor* x = v->val_as_Tensor();
        if (!x) break;
        t.dtype = scalar_type_name(x->scalar_type());
        if (x->sizes())
          for (int32_t d : *x->sizes()) t.sizes.push_back(d);
        if (x->dim_order()) t.dim_order.assign(x->dim_order()->begin(), x->dim_order()->end());
        if (x->data()) t.bytes = std::span<const uint8_t>(x->data()->data(), x->data()->size());
        break;
      }
      case fb::ValueUnion::Int:
        t.is_tensor = false;
        t.dtype = "int64";
        t.scalar = static_cast<double>(v->val_as_Int()->int_val());
        break;
      case fb::ValueUnion::Bool:
        t.is_tensor = false;
        t.dtype = "bool";
        t.scalar = v->val_as_Bool()->bool_val() ? 1 : 0;
        break;
      case fb::ValueUnion::Double:
        t.is_tensor = false;
        t.dtype = "float64";
        t.scalar = v->val_as_Double()->double_val();
        break;
      default:
        t.is_tensor = false;
        t.dtype = "none";
        break;
    }
    out.outputs.push_back(std::move(t));
  }
  return out;
}

}  // namespace etviz::executorch
