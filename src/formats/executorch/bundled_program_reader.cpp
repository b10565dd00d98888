#include "formats/executorch/bundled_program_reader.h"

#include <fmt/format.h>

#include "bundled_program_generated.h"
#include "core/expansion_budget.h"
#include "formats/executorch/program_reader.h"
#include "formats/executorch/scalar_type.h"
#include "formats/flatbuffer_verify.h"

namespace etviz::executorch {
namespace {

namespace fb = etviz::bundled;

Result<TestValue> read_test_value(const fb::Value* v) {
  TestValue out;
  if (v && v->val_type() != fb::ValueUnion::NONE && !v->val())
    return Error(
        fmt::format("test value of kind {} without its table", static_cast<int>(v->val_type())));
  switch (v ? v->val_type() : fb::ValueUnion::NONE) {
    case fb::ValueUnion::Tensor: {
      const fb::Tensor* t = v->val_as_Tensor();
      out.kind = ValueKind::kTensor;
      out.tensor.dtype = scalar_type_name(t->scalar_type());
      if (t->sizes())
        for (int32_t s : *t->sizes()) out.tensor.shape.push_back(Dim{s, {}});
      if (t->dim_order())
        out.tensor.dim_order.assign(t->dim_order()->begin(), t->dim_order()->end());
      out.tensor.nbytes = t->data() ? t->data()->size() : 0;
      out.tensor.data_location = DataLocation::kInline;
      return out;
    }
    case fb::ValueUnion::Int:
      out.kind = ValueKind::kInt;
      out.literal = std::to_string(v->val_as_Int()->int_val());
      return out;
    case fb::ValueUnion::Bool:
      out.kind = ValueKind::kBool;
      out.literal = v->val_as_Bool()->bool_val() ? "True" : "False";
      return out;
    case fb::ValueUnion::Double:
      out.kind = ValueKind::kDouble;
      out.literal = fmt::format("{}", v->val_as_Double()->double_val());
      return out;
    case fb::ValueUnion::NONE:
      break;
  }
  out.kind = ValueKind::kOther;
  out.literal = fmt::format("<unknown value kind {}>", v ? static_cast<int>(v->val_type()) : 0);
  return out;
}

Status read_suites(const fb::BundledProgram& bundle, Document& doc, ExpansionBudget& budget) {
  const auto* suites = bundle.method_test_suites();
  if (!suites) return Status::Ok();
  for (const fb::BundledMethodTestSuite* suite : *suites) {
    TestSuite out;
    out.method = suite->method_name() ? suite->method_name()->str() : "";
    for (flatbuffers::uoffset_t c = 0; suite->test_cases() && c < suite->test_cases()->size();
         ++c) {
      const auto* tc = suite->test_cases()->Get(c);
      TestCase test;
      auto read_list = [&](const auto* list, std::vector<TestValue>& into) -> Status {
        if (!list) return Status::Ok();
        for (const fb::Value* v : *list) {
          if (!budget.charge(1 + (v && v->val_as_Tensor() && v->val_as_Tensor()->sizes()
                                      ? v->val_as_Tensor()->sizes()->size()
                                      : 0)))
            return ExpansionBudget::exhausted_error();
          auto value = read_test_value(v);
          if (!value) return value.error();
          into.push_back(std::move(*value));
        }
        return Status::Ok();
      };
      if (auto s = read_list(tc->inputs(), test.inputs); !s) return s;
      if (auto s = read_list(tc->expected_outputs(), test.expected_outputs); !s) return s;
      out.cases.push_back(std::move(test));
    }
    doc.test_suites.push_back(std::move(out));
  }
  return Status::Ok();
}

}  // namespace

Result<Document> read_bundled_program_file(std::shared_ptr<const MappedFile> file) {
  Document doc;
  doc.format = DocumentFormat::kBundledProgram;
  doc.sources.push_back(file);
  auto bytes = file->bytes();
  if (auto s = verify_flatbuffer<fb::BundledProgram>(bytes, "BP08", "bundled program"); !s)
    return s.error().within(file->path());
  const auto* bundle = flatbuffers::GetRoot<fb::BundledProgram>(bytes.data());
  const auto* program = bundle->program();
  if (!program || program->size() == 0)
    return Error("bundled program holds no program bytes").within(file->path());
  const uint64_t offset = static_cast<uint64_t>(program->data() - bytes.data());
  ExpansionBudget budget(bytes.size());
  if (auto s = read_suites(*bundle, doc, budget); !s) return s.error().within(file->path());
  if (auto s = read_program_into(doc, 0, offset, std::span(program->data(), program->size())); !s)
    return s.error().within(fmt::format("{}: embedded program at offset {}", file->path(), offset));
  const std::string program_version = doc.format_version;
  doc.format_version =
      fmt::format("BP08 version {}; embedded {}", bundle->version(), program_version);
  doc.properties.insert(
      doc.properties.begin(),
      {{"bundle_version", std::to_string(bundle->version())},
       {"embedded_program", fmt::format("{} bytes at offset {}", program->size(), offset)}});
  // The bundle's own bytes around the program (test data, tables) as one section.
  doc.sections.insert(doc.sections.begin(), {"bundle (test data and tables)", "bundle", 0,
                                             bytes.size() - program->size()});
  return doc;
}

}  // namespace etviz::executorch
