//! The ram memory, the pointers and `_resume` as a compiled detector
//! reads them.
//!
//! [`Cells`] borrows a state's regions and the pointer values, and reads a
//! cell of a known number of dimensions with one match on its region:
//! no view, no dynamic call and no dispatch on the shape of the read,
//! which the detector fixed when it was compiled. Every read gives what
//! [`crate::program::World::cell_ij`] gives on a view of the same state
//! (END, `None`, outside the data or for data of other dimensions), and a
//! missing pointer reads 0 as [`crate::program::World::pointer_or_zero`]
//! reads it. Other environments have no cells: their [`Cells`] has no
//! regions, and every cell reads END, as their states' `cell` does.

use super::Region;
use crate::program::flat::FastSide;

/// A region laid out for code generated from a compiled detector: an
/// array's values and length, a matrix's values, rows and columns, a
/// scalar's value (`has_scalar` 1); each kind's fields are null and zero
/// where the region is not of that kind, so that a read of that kind there
/// is outside (END) as [`Cells::at`], [`Cells::at2`] and [`Cells::scalar`]
/// read it. The values stay where they are until the memory is changed by
/// other than a cell's write; the code writes an array's cells in place
/// ([`crate::exec::Store::raw_region`]).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RawRegion {
    pub array: *mut i64,
    pub len: u64,
    pub matrix: *mut i64,
    pub rows: u64,
    pub cols: u64,
    pub scalar: i64,
    pub has_scalar: u64,
}

impl RawRegion {
    /// A region the code reads nothing in: every read is outside.
    pub const NONE: RawRegion = RawRegion {
        array: std::ptr::null_mut(),
        len: 0,
        matrix: std::ptr::null_mut(),
        rows: 0,
        cols: 0,
        scalar: 0,
        has_scalar: 0,
    };
}

/// `region` as generated code reads and writes it (see [`RawRegion`]):
/// its values' addresses taken from a mutable borrow, for the code writes
/// an array's cells.
pub(super) fn raw(region: Option<&mut Region>) -> RawRegion {
    let mut raw = RawRegion::NONE;
    match region {
        Some(Region::Scalar(k)) => (raw.scalar, raw.has_scalar) = (*k, 1),
        Some(Region::Array(values)) => {
            (raw.array, raw.len) = (values.as_mut_ptr(), values.len() as u64)
        }
        // A matrix holds `rows × cols` values (else none is read).
        Some(Region::Matrix { rows, cols, values })
            if rows.checked_mul(*cols) == Some(values.len()) =>
        {
            (raw.matrix, raw.rows, raw.cols) = (values.as_mut_ptr(), *rows as u64, *cols as u64);
        }
        _ => {}
    }
    raw
}

/// See the module documentation.
#[derive(Clone, Copy)]
pub struct Cells<'a> {
    regions: &'a [Region],
    pointers: &'a [i64],
    resume: i64,
}

impl<'a> Cells<'a> {
    pub(in crate::env) fn new(regions: &'a [Region], pointers: &'a [i64]) -> Cells<'a> {
        Cells {
            regions,
            pointers,
            resume: 0,
        }
    }

    /// The cells with `_resume` reading `resume` (as
    /// [`crate::env::View::with_resume`]; 0 unless given).
    #[inline(always)]
    pub fn with_resume(self, resume: i64) -> Cells<'a> {
        Cells { resume, ..self }
    }

    /// The side `side` reads: a number, or a cell (`None` for END).
    #[inline(always)]
    pub fn read(self, side: FastSide) -> Option<i64> {
        match side {
            FastSide::Int(k) => Some(k),
            FastSide::Pointer(p, k) => Some(self.pointer(p).wrapping_add(k)),
            FastSide::Scalar(data) => self.scalar(data),
            FastSide::At(data, p) => self.at(data, self.pointer(p)),
            FastSide::At2(data, p, q) => self.at2(data, self.pointer(p), self.pointer(q)),
            FastSide::Resume => Some(self.resume),
        }
    }

    /// `_resume`.
    #[inline(always)]
    pub fn resume(self) -> i64 {
        self.resume
    }

    /// Pointer `p`, or 0 for one the program lacks.
    #[inline(always)]
    pub fn pointer(self, p: u32) -> i64 {
        self.pointers.get(p as usize).copied().unwrap_or(0)
    }

    /// The scalar `data` (`n`).
    #[inline(always)]
    pub fn scalar(self, data: u32) -> Option<i64> {
        match self.regions.get(data as usize) {
            Some(Region::Scalar(k)) => Some(*k),
            _ => None,
        }
    }

    /// The cell of the array `data` at `i`.
    #[inline(always)]
    pub fn at(self, data: u32, i: i64) -> Option<i64> {
        match self.regions.get(data as usize) {
            // A negative `i` is far above every length.
            Some(Region::Array(values)) => values.get(i as u64 as usize).copied(),
            _ => None,
        }
    }

    /// The cell of the matrix `data` at `i, j`.
    #[inline(always)]
    pub fn at2(self, data: u32, i: i64, j: i64) -> Option<i64> {
        match self.regions.get(data as usize) {
            Some(Region::Matrix { rows, cols, values })
                if (i as u64) < *rows as u64 && (j as u64) < *cols as u64 =>
            {
                // Inside, `i * cols + j` is below `rows * cols`.
                values.get(i as usize * cols + j as usize).copied()
            }
            _ => None,
        }
    }
}
