//===- coop-tblgen.cpp - the coop dialect's ODS as a Python table --------===//
//
// Emits `cuda/coop/_ods.py`: every coop op's operands, attributes (with their
// enum cases and defaults) and results, and every coop enum, read from the
// ODS records through mlir::tblgen. Python names algorithms, modes and
// operators and builds sites from this table, so ODS stays their one source.
//
//===----------------------------------------------------------------------===//

#include "mlir/TableGen/Attribute.h"
#include "mlir/TableGen/EnumInfo.h"
#include "mlir/TableGen/Operator.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TableGen/Main.h"
#include "llvm/TableGen/Record.h"

#include <map>

using namespace llvm;
using namespace mlir::tblgen;

/// A Python string literal of `text`.
static std::string quoted(StringRef text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

/// The enum behind an op attribute (through DefaultValuedAttr/OptionalAttr),
/// if it is a coop EnumAttr.
static const Record *enumAttrDef(const Attribute &attr) {
  const Record *def = &attr.getDef();
  while (def->isSubClassOf("DefaultValuedAttr") || def->isSubClassOf("OptionalAttr"))
    def = def->getValueAsDef("baseAttr");
  return def->isSubClassOf("EnumAttr") ? def : nullptr;
}

/// The case name of a C++ enumerator default, `::ns::Enum::case`.
static StringRef caseOf(StringRef cppDefault) {
  size_t colon = cppDefault.rfind("::");
  return colon == StringRef::npos ? cppDefault : cppDefault.drop_front(colon + 2);
}

static void emitAttribute(raw_ostream &os, const NamedAttribute &named) {
  const Attribute &attr = named.attr;
  os << "        (" << quoted(named.name) << ", ";
  StringRef storage = attr.getStorageType();
  const Record *enumDef = enumAttrDef(attr);
  if (enumDef) {
    EnumInfo info(enumDef->getValueAsDef("enum"));
    os << "{\"kind\": \"enum\", \"enum\": " << quoted(info.getEnumClassName());
  } else if (storage == "::mlir::UnitAttr") {
    os << "{\"kind\": \"unit\"";
  } else if (storage == "::mlir::FlatSymbolRefAttr" || storage == "::mlir::SymbolRefAttr") {
    os << "{\"kind\": \"symbol\"";
  } else if (storage == "::mlir::IntegerAttr") {
    os << "{\"kind\": \"integer\"";
  } else {
    os << "{\"kind\": " << quoted(storage);
  }
  os << ", \"optional\": " << (attr.isOptional() ? "True" : "False");
  if (enumDef && attr.hasDefaultValue())
    os << ", \"default\": " << quoted(caseOf(attr.getDefaultValue()));
  os << "}),\n";
}

/// An operand or result: (name, "single" | "optional" | "variadic").
static void emitValue(raw_ostream &os, const NamedTypeConstraint &value) {
  const char *arity = value.isOptional()   ? "optional"
                      : value.isVariadic() ? "variadic"
                                           : "single";
  os << "            (" << quoted(value.name) << ", \"" << arity << "\"),\n";
}

static bool emitPythonTable(raw_ostream &os, const RecordKeeper &records) {
  os << "\"\"\"The coop dialect's operations and enums, generated from its ODS by\n"
        "coop-tblgen at build time: do not edit.\"\"\"\n\n";
  os << "OPS = {\n";
  for (const Record *def : records.getAllDerivedDefinitions("Op")) {
    Operator op(def);
    if (op.getDialectName() != "coop")
      continue;
    os << "    " << quoted(op.getOperationName()) << ": {\n";
    os << "        \"summary\": " << quoted(op.getSummary()) << ",\n";
    os << "        \"operands\": (\n";
    for (int i = 0, e = op.getNumOperands(); i < e; ++i)
      emitValue(os, op.getOperand(i));
    os << "        ),\n        \"attributes\": (\n";
    for (const NamedAttribute &named : op.getAttributes()) {
      if (named.attr.isDerivedAttr())
        continue;
      os << "    ";
      emitAttribute(os, named);
    }
    os << "        ),\n        \"results\": (\n";
    for (int i = 0, e = op.getNumResults(); i < e; ++i)
      emitValue(os, op.getResult(i));
    os << "        ),\n        \"regions\": " << op.getNumRegions() << ",\n    },\n";
  }
  // Every coop enum, with the mnemonic of the attribute that holds it (none
  // for an enum that is a type parameter, like GroupKind).
  std::map<const Record *, StringRef> mnemonics;
  for (const Record *def : records.getAllDerivedDefinitions("EnumAttr"))
    mnemonics[def->getValueAsDef("enum")] = def->getValueAsString("mnemonic");
  os << "}\n\nENUMS = {\n";
  for (const Record *def : records.getAllDerivedDefinitions("EnumAttrInfo")) {
    EnumInfo info(def);
    if (info.getCppNamespace() != "::mlir::coop")
      continue;
    os << "    " << quoted(info.getEnumClassName()) << ": {\n";
    auto mnemonic = mnemonics.find(def);
    if (mnemonic != mnemonics.end())
      os << "        \"mnemonic\": " << quoted(mnemonic->second) << ",\n";
    os << "        \"summary\": " << quoted(info.getSummary()) << ",\n";
    os << "        \"cases\": (";
    for (const EnumCase &enumCase : info.getAllCases())
      os << quoted(enumCase.getStr()) << ", ";
    os << "),\n    },\n";
  }
  os << "}\n";
  return false;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv);
  return TableGenMain(argv[0], &emitPythonTable);
}
