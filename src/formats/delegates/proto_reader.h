#pragma once
// A bounds-checked walker over Protocol Buffers wire format: enough to read Core ML model specs
// without generated code. Each next() yields one field; length-delimited payloads are
// returned as byte spans to walk with a nested reader. Malformed input stops the walk and
// sets error().
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace etviz::delegates {

class ProtoReader {
 public:
  enum WireType { kVarint = 0, kFixed64 = 1, kBytes = 2, kFixed32 = 5 };

  explicit ProtoReader(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  bool next() {
    if (pos_ >= bytes_.size() || !error_.empty()) return false;
    uint64_t key = 0;
    if (!read_varint(key)) return fail("truncated field key");
    field_ = static_cast<uint32_t>(key >> 3);
    wire_ = static_cast<int>(key & 7);
    if (field_ == 0) return fail("field number 0");
    switch (wire_) {
      case kVarint:
        if (!read_varint(value_)) return fail("truncated varint");
        return true;
      case kFixed64:
        if (bytes_.size() - pos_ < 8) return fail("truncated fixed64");
        value_ = 0;
        for (int i = 7; i >= 0; --i) value_ = value_ << 8 | bytes_[pos_ + static_cast<size_t>(i)];
        pos_ += 8;
        return true;
      case kFixed32:
        if (bytes_.size() - pos_ < 4) return fail("truncated fixed32");
        value_ = uint64_t{bytes_[pos_]} | uint64_t{bytes_[pos_ + 1]} << 8 |
                 uint64_t{bytes_[pos_ + 2]} << 16 | uint64_t{bytes_[pos_ + 3]} << 24;
        pos_ += 4;
        return true;
      case kBytes: {
        uint64_t n = 0;
        if (!read_varint(n)) return fail("truncated length");
        if (n > bytes_.size() - pos_) return fail("length runs past the message");
        payload_ = bytes_.subspan(pos_, n);
        pos_ += n;
        return true;
      }
      default:
        return fail("unsupported wire type " + std::to_string(wire_));
    }
  }

  uint32_t field() const { return field_; }
  int wire_type() const { return wire_; }
  uint64_t value() const { return value_; }
  std::span<const uint8_t> bytes() const { return payload_; }
  std::string_view text() const {
    return {reinterpret_cast<const char*>(payload_.data()), payload_.size()};
  }
  const std::string& error() const { return error_; }
  size_t position() const { return pos_; }

 private:
  bool read_varint(uint64_t& out) {
    out = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= bytes_.size()) return false;
      const uint8_t b = bytes_[pos_++];
      out |= uint64_t{b & 0x7Fu} << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  }
  bool fail(std::string message) {
    error_ = std::move(message) + " at byte " + std::to_string(pos_);
    return false;
  }

  std::span<const uint8_t> bytes_;
  size_t pos_ = 0;
  uint32_t field_ = 0;
  int wire_ = 0;
  uint64_t value_ = 0;
  std::span<const uint8_t> payload_;
  std::string error_;
};

}  // namespace etviz::delegates
