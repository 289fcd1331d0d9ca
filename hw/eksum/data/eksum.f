# eksum.f -- expanded-key checksum unit (hw/eksum)
# (Format and readers: hw/common/util/rtl_manifest.py.)
eksum/rtl/eksum_unit.v
